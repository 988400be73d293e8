// The sessions of one project folder for the window's sidebar: title, times and how the last run
// ended, read from the head and tail of each transcript (a 20 MB session costs two small reads),
// plus the person's own titles kept beside the transcripts.
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionStatus } from '../../shared/api';
import { writeFileAtomic } from '../workspace/atomic-write';
import { sessionsDir, transcriptPath } from './transcript';

/** What the sidebar needs of one session (`current` is the window's business). */
export interface StoredSession {
  readonly id: string;
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly status: Exclude<SessionStatus, 'running'>;
}

const EDGE_BYTES = 64 * 1024;
const TITLE_CHARS = 80;
const TITLES_FILE = 'titles.json';

export const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Sessions of `folder`, newest first. */
export async function listStoredSessions(
  dataDir: string,
  folder: string,
): Promise<StoredSession[]> {
  const dir = sessionsDir(dataDir, folder);
  if (!existsSync(dir)) return [];
  const titles = await readTitles(dir);
  const ids = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => name.slice(0, -'.jsonl'.length))
    .filter((id) => SESSION_ID.test(id));
  const sessions = ids.map((id) => summarise(join(dir, `${id}.jsonl`), id, titles[id]));
  return sessions.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
}

export async function renameStoredSession(
  dataDir: string,
  folder: string,
  id: string,
  title: string,
): Promise<void> {
  requireSession(dataDir, folder, id);
  const dir = sessionsDir(dataDir, folder);
  const titles = await readTitles(dir);
  titles[id] = title;
  await writeFileAtomic(join(dir, TITLES_FILE), JSON.stringify(titles, null, 2));
}

export async function deleteStoredSession(
  dataDir: string,
  folder: string,
  id: string,
): Promise<void> {
  const file = requireSession(dataDir, folder, id);
  rmSync(file);
  const dir = sessionsDir(dataDir, folder);
  const titles = await readTitles(dir);
  if (id in titles) {
    delete titles[id];
    await writeFileAtomic(join(dir, TITLES_FILE), JSON.stringify(titles, null, 2));
  }
}

/** The person's title for a session, or the one made from its first task. */
export async function storedSessionTitle(
  dataDir: string,
  folder: string,
  id: string,
): Promise<string> {
  const file = requireSession(dataDir, folder, id);
  const titles = await readTitles(sessionsDir(dataDir, folder));
  return summarise(file, id, titles[id]).title;
}

function requireSession(dataDir: string, folder: string, id: string): string {
  if (!SESSION_ID.test(id)) throw new Error(`"${id}" is not a session id.`);
  const file = transcriptPath(dataDir, folder, id);
  if (!existsSync(file)) throw new Error('That session does not exist (any more).');
  return file;
}

async function readTitles(dir: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(join(dir, TITLES_FILE), 'utf8');
  } catch {
    return {};
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const titles: Record<string, string> = {};
    for (const [id, title] of Object.entries(value))
      if (SESSION_ID.test(id) && typeof title === 'string') titles[id] = title;
    return titles;
  } catch {
    return {};
  }
}

function summarise(file: string, id: string, title: string | undefined): StoredSession {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const mtime = fstatSync(fd).mtimeMs;
    const head = linesOf(readAt(fd, 0, Math.min(size, EDGE_BYTES)), false);
    const tailStart = Math.max(0, size - EDGE_BYTES);
    const tail = tailStart === 0 ? head : linesOf(readAt(fd, tailStart, size - tailStart), true);
    const created = head.find((line) => line.kind === 'meta');
    const task = head.find((line) => eventType(line) === 'run-started');
    return {
      id,
      title: title ?? titleFromTask(task ? String(eventField(task, 'task') ?? '') : ''),
      createdAt: typeof created?.at === 'number' ? created.at : mtime,
      updatedAt: mtime,
      status: statusFrom(tail) ?? (task ? 'interrupted' : 'new'),
    };
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): string {
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read).toString('utf8');
}

type Line = Record<string, unknown>;

/** Whole JSON lines of a piece of the file; the cut first (tail) and last lines are dropped. */
function linesOf(text: string, cutStart: boolean): Line[] {
  const parts = text.split('\n');
  if (cutStart) parts.shift();
  const lines: Line[] = [];
  for (const part of parts) {
    if (!part.trim()) continue;
    try {
      const value: unknown = JSON.parse(part);
      if (typeof value === 'object' && value !== null) lines.push(value as Line);
    } catch {
      // A line cut by the window of bytes, or torn by a crash.
    }
  }
  return lines;
}

function eventType(line: Line): unknown {
  return line.kind === 'event' ? (line.event as Line | undefined)?.type : undefined;
}

function eventField(line: Line, field: string): unknown {
  return (line.event as Line | undefined)?.[field];
}

/** How the last run in `tail` ended; null when the tail holds no start or end of a run. */
function statusFrom(tail: readonly Line[]): StoredSession['status'] | null {
  for (let i = tail.length - 1; i >= 0; i--) {
    const line = tail[i] as Line;
    const type = eventType(line);
    if (type === 'run-started') return 'interrupted';
    if (type !== 'run-finished') continue;
    switch (eventField(line, 'reason')) {
      case 'done':
        return 'done';
      case 'stopped':
        return 'stopped';
      case 'max-steps':
        return 'step-limit';
      default:
        return 'failed';
    }
  }
  return null;
}

/** The first line of the task, at most 80 characters. */
export function titleFromTask(task: string): string {
  const line = task.trim().split('\n')[0]?.trim() ?? '';
  if (line === '') return 'New session';
  const points = Array.from(line);
  return points.length > TITLE_CHARS ? `${points.slice(0, TITLE_CHARS - 1).join('')}…` : line;
}
