// Shell commands are journaled too: before an approved command, the project is snapshotted into a
// shadow git repository in Tandem's data folder (never the project's own .git; .gitignore is
// honoured); afterwards the difference is shown and recorded in the file journal, so the same
// `revert(callId)` undoes a command like it undoes an edit.
import { createHash } from 'node:crypto';
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  describeChanges,
  hasContent,
  parseRawDiff,
  type CommandChanges,
  type RawChange,
} from './command-changes';
import type { FileJournal, ImageSource, RevertResult } from './file-journal';
import { initShadowRepository, readBlobs, shadowGit, type ShadowGitOptions } from './shadow-git';

export interface ShadowSnapshotOptions {
  /** Real path of the project folder. */
  readonly folder: string;
  /** Where the shadow repository lives, e.g. `join(projectDataDir(dataDir, folder), 'shadow.git')`. */
  readonly shadowDir: string;
  /** The session's journal: command changes are recorded there, and reverted through it. */
  readonly journal: FileJournal;
  /** Cap on the project's size after .gitignore (default 500 MB). */
  readonly maxBytes?: number;
  /** Cap on the number of files after .gitignore (default 50,000). */
  readonly maxFiles?: number;
  /**
   * Real paths never snapshotted: Tandem's own data folders, should one lie inside the project.
   * Tandem writes there during a command (the transcript, this very repository), and a revert
   * must never put its own files back.
   */
  readonly exclude?: readonly string[];
}

export type SnapshotResult =
  { readonly ok: true; readonly commit: string } | { readonly ok: false; readonly reason: string };

export type ChangesResult =
  ({ readonly ok: true } & CommandChanges) | { readonly ok: false; readonly reason: string };

const DEFAULT_MAX_BYTES = 500 * 1024 * 1024;
const DEFAULT_MAX_FILES = 50_000;

export class ShadowSnapshot {
  private readonly git: ShadowGitOptions;
  private readonly refused = new Map<string, string>();
  private ready: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ShadowSnapshotOptions) {
    this.git = { gitDir: options.shadowDir, workTree: options.folder };
  }

  /** Takes the "before" picture for `callId`. Refuses (saying why) above the size cap. */
  snapshotBefore(callId: string): Promise<SnapshotResult> {
    return this.serial(async () => {
      try {
        await this.init();
        const tooBig = await this.checkSize();
        if (tooBig) {
          this.refused.set(callId, tooBig);
          return { ok: false, reason: tooBig };
        }
        const commit = await this.commitWorkTree(`before ${callId}`);
        await shadowGit(this.git, ['update-ref', refOf(callId, 'before'), commit]);
        return { ok: true, commit };
      } catch (error) {
        const reason = `No snapshot before this command: ${(error as Error).message}`;
        this.refused.set(callId, reason);
        return { ok: false, reason };
      }
    });
  }

  /**
   * What changed on disk since `snapshotBefore(callId)` (the "after" picture is taken on the first
   * call and kept). It also records each changed file in the journal (before and after), which is
   * what makes `revert(callId)` possible.
   */
  changesSince(callId: string): Promise<ChangesResult> {
    return this.serial(async () => {
      const refusal = this.refused.get(callId);
      if (refusal) return { ok: false, reason: refusal };
      try {
        const before = await this.resolveRef(refOf(callId, 'before'));
        if (!before) return { ok: false, reason: `No snapshot was taken before call ${callId}.` };
        let after = await this.resolveRef(refOf(callId, 'after'));
        if (!after) {
          after = await this.commitWorkTree(`after ${callId}`);
          await shadowGit(this.git, ['update-ref', refOf(callId, 'after'), after]);
        }
        const raw = parseRawDiff(
          (
            await shadowGit(this.git, [
              'diff-tree',
              '-r',
              '-z',
              '--raw',
              '--no-renames',
              '--no-abbrev',
              before,
              after,
            ])
          ).stdout,
        );
        const blobs = await readBlobs(
          this.git,
          raw.flatMap((c) => [c.oldId, c.newId]).filter(hasContent),
        );
        await this.record(callId, raw, blobs); // Once per file: the journal keeps the first record.
        return { ok: true, ...describeChanges(raw, blobs) };
      } catch (error) {
        return {
          ok: false,
          reason: `Could not work out what the command changed: ${(error as Error).message}`,
        };
      }
    });
  }

  /** Undoes the command's changes (refusing on conflicts), through the journal. */
  revert(callId: string): Promise<RevertResult> {
    return this.options.journal.revert(callId);
  }

  private async record(
    callId: string,
    raw: readonly RawChange[],
    blobs: ReadonlyMap<string, Buffer>,
  ): Promise<void> {
    for (const change of raw) {
      let before = imageSource(change.oldMode, change.oldId, blobs);
      if (!before) continue;
      const path = join(this.options.folder, change.path);
      if (before.kind === 'file') {
        // Git keeps only 644/755; a file still there keeps its exact mode when the class matches.
        const current = await lstat(path).catch(() => undefined);
        if (current?.isFile() && (current.mode & 0o111) === (before.mode & 0o111)) {
          before = { ...before, mode: current.mode & 0o7777 };
        }
      }
      await this.options.journal.recordChange(callId, path, before, 'current');
    }
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      const head = await lstat(join(this.options.shadowDir, 'HEAD')).catch(() => undefined);
      if (head) return;
      await mkdir(this.options.shadowDir, { recursive: true });
      await initShadowRepository(this.options.shadowDir);
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** The size cap, stated: undefined when the project fits. */
  private async checkSize(): Promise<string | undefined> {
    const maxBytes = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxFiles = this.options.maxFiles ?? DEFAULT_MAX_FILES;
    const listed = await shadowGit(this.git, [
      'ls-files',
      '-z',
      '--cached',
      '--others',
      '--exclude-standard',
      '--',
      '.',
      ...this.excluded(),
    ]);
    const paths = [...new Set(listed.stdout.toString('utf8').split('\0').filter(Boolean))];
    let bytes = 0;
    for (const path of paths) {
      bytes += (await lstat(join(this.options.folder, path)).catch(() => undefined))?.size ?? 0;
    }
    if (paths.length <= maxFiles && bytes <= maxBytes) return undefined;
    return (
      `The project is ${formatBytes(bytes)} in ${paths.length} files (after .gitignore), above the snapshot cap of ` +
      `${formatBytes(maxBytes)} / ${maxFiles} files, so this command's changes are not tracked and cannot be reverted.`
    );
  }

  private async commitWorkTree(message: string): Promise<string> {
    await shadowGit(this.git, ['add', '--all', '--ignore-errors', '--', '.', ...this.excluded()]);
    const tree = (await shadowGit(this.git, ['write-tree'])).stdout.toString('utf8').trim();
    return (await shadowGit(this.git, ['commit-tree', tree, '-m', message])).stdout
      .toString('utf8')
      .trim();
  }

  /** Exclude pathspecs (taken literally) for the excluded folders inside the project. */
  private excluded(): string[] {
    const root = this.options.folder.endsWith('/')
      ? this.options.folder
      : `${this.options.folder}/`;
    return (this.options.exclude ?? [])
      .filter((dir) => dir.startsWith(root))
      .map((dir) => `:(exclude,literal)${dir.slice(root.length)}`);
  }

  private async resolveRef(ref: string): Promise<string | undefined> {
    try {
      return (await shadowGit(this.git, ['rev-parse', '--verify', '--quiet', ref])).stdout
        .toString('utf8')
        .trim();
    } catch {
      return undefined;
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function refOf(callId: string, side: 'before' | 'after'): string {
  return `refs/tandem/${createHash('sha256').update(callId).digest('hex').slice(0, 40)}/${side}`;
}

function imageSource(
  mode: string,
  id: string,
  blobs: ReadonlyMap<string, Buffer>,
): ImageSource | undefined {
  if (!hasContent(id)) return { kind: 'absent' };
  const content = blobs.get(id);
  if (!content) return undefined;
  if (mode === '120000') return { kind: 'symlink', target: content.toString('utf8') };
  return { kind: 'file', content, mode: mode === '100755' ? 0o755 : 0o644 };
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
