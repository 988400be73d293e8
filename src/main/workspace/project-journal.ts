// The undo journal and the change tracker of one project, shared by everything in this process
// that opens the project (two sessions in one process must not keep two journals: sequence
// numbers and command diffs would mix), and owned by at most one process (the project lock). A
// process that finds the project owned by another opens it read-only and says who holds it.
// Opening also tightens the modes of data an older version wrote (issue 11 item 4).
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { projectDataDir, realDataFolder } from '../store/data-dir';
import {
  ensurePrivateDir,
  tightenDataRoot,
  tightenPrivateTree,
  touchPrivateFile,
} from '../store/private-files';
import { ChangeTracker } from './change-tracker';
import { FileJournal } from './file-journal';
import { acquireProjectLock, type LockOptions } from './project-lock';

export interface ProjectJournal {
  readonly journal: FileJournal;
  readonly tracker: ChangeTracker;
  /** Set when another process owns the project: why nothing here may change files. */
  readonly readOnly: string | undefined;
  /** Settles once data left by an older version has been tightened (tests wait for it). */
  readonly tightened: Promise<unknown>;
  release(): Promise<void>;
}

export interface ProjectJournalOptions {
  /** Real path of the project folder. */
  readonly folder: string;
  readonly dataDir: string;
  readonly lock?: LockOptions;
  /** Tracker settings (tests and the bench). */
  readonly tracker?: {
    readonly maxFiles?: number;
    readonly maxBytes?: number;
    readonly watch?: boolean;
  };
}

interface Shared {
  readonly project: Omit<ProjectJournal, 'release'>;
  readonly releaseLock: (() => Promise<void>) | undefined;
  users: number;
}

const open = new Map<string, Promise<Shared>>();

export async function openProjectJournal(options: ProjectJournalOptions): Promise<ProjectJournal> {
  const projectDir = projectDataDir(options.dataDir, options.folder);
  let shared = open.get(projectDir);
  if (!shared) {
    shared = create(projectDir, options);
    open.set(projectDir, shared);
    shared.catch(() => open.delete(projectDir));
  }
  const entry = await shared;
  entry.users += 1;
  let released = false;
  return {
    ...entry.project,
    async release() {
      if (released) return;
      released = true;
      entry.users -= 1;
      if (entry.users > 0) return;
      open.delete(projectDir);
      await entry.project.tightened;
      await entry.project.tracker.close();
      entry.project.journal.close();
      await entry.releaseLock?.();
    },
  };
}

async function create(projectDir: string, options: ProjectJournalOptions): Promise<Shared> {
  ensurePrivateDir(projectDir);
  tightenDataRoot(options.dataDir);
  const lock = await acquireProjectLock(projectDir, options.lock);
  const readOnly = lock.kind === 'held' ? lock.message : undefined;
  const journal = new FileJournal({
    dir: join(projectDir, 'journal'),
    folder: options.folder,
    ...(readOnly ? { readOnly } : {}),
  });
  journal.load();
  const tracker = new ChangeTracker({
    folder: options.folder,
    trackDir: join(projectDir, 'track'),
    journal,
    // Tandem's own data, should it lie inside the project: never tracked, never put back.
    skip: [realDataFolder(options.dataDir)],
    ...options.tracker,
  });
  const tightened = readOnly ? Promise.resolve() : tightenOnce(projectDir);
  return {
    project: { journal, tracker, readOnly, tightened },
    releaseLock: lock.kind === 'owner' ? lock.release : undefined,
    users: 0,
  };
}

/**
 * Data an older version wrote is tightened once per project data folder (what this version
 * writes is private from the start). Older versions also kept a git copy of the project here,
 * world-readable and no longer used: it goes.
 */
async function tightenOnce(projectDir: string): Promise<void> {
  const marker = join(projectDir, '.private-v1');
  if (existsSync(marker)) return;
  try {
    await rm(join(projectDir, 'shadow.git'), { recursive: true, force: true });
    await tightenPrivateTree(projectDir);
    touchPrivateFile(marker);
  } catch {
    // Best effort: tried again next time.
  }
}
