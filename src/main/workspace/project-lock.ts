// One Tandem process owns a project's data folder at a time (issue 10 item 7): two writers gave
// duplicate journal sequence numbers, mixed command diffs and a revert that deleted the other
// run's file. On Linux the lock is an abstract unix socket: the kernel releases it when the owner
// dies, so a crash never leaves a stale lock, and whoever finds it taken asks the owner who it is.
// Its name comes from a random id kept in the (private) data folder, so another user cannot take
// it first. Elsewhere a lock file with the owner's pid, superseded when that process is gone.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openPrivateFile } from '../store/private-files';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** When the holder took the lock (ms since the epoch). */
  readonly since: number;
}

export type LockResult =
  | { readonly kind: 'owner'; readonly release: () => Promise<void> }
  | { readonly kind: 'held'; readonly holder: LockHolder | undefined; readonly message: string };

export interface LockOptions {
  /** Keep trying this long before settling for "held" (default 0: answer at once). */
  readonly waitMs?: number;
  /** Tests force the lock-file form. */
  readonly form?: 'socket' | 'file';
}

const RETRY_MS = 200;

export async function acquireProjectLock(
  projectDir: string,
  options: LockOptions = {},
): Promise<LockResult> {
  const form = options.form ?? (process.platform === 'linux' ? 'socket' : 'file');
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    const result = form === 'socket' ? await trySocket(projectDir) : tryFile(projectDir);
    if (result.kind === 'owner' || Date.now() >= deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another Tandem process';
  return `another Tandem process (pid ${holder.pid} on ${holder.host}, since ${new Date(holder.since).toISOString()})`;
}

function heldMessage(holder: LockHolder | undefined): string {
  return (
    `This project is open in ${describeHolder(holder)}. This one is read-only: it will not ` +
    `change files, run commands or undo anything; once that one has closed, open the folder again.`
  );
}

function me(): LockHolder {
  return { pid: process.pid, host: hostname(), since: Date.now() };
}

async function trySocket(projectDir: string): Promise<LockResult> {
  const name = `\0tandem-lock-${lockId(projectDir)}`;
  const holder = me();
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.end(JSON.stringify(holder));
  });
  const bound = await new Promise<boolean>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    });
    server.listen(name, () => resolve(true));
  });
  if (!bound) {
    const other = await askHolder(name);
    return { kind: 'held', holder: other, message: heldMessage(other) };
  }
  server.unref(); // The lock must not keep the process alive.
  return { kind: 'owner', release: () => closeServer(server) };
}

/** The random part of the socket's name, made once per project data folder. */
function lockId(projectDir: string): string {
  const file = join(projectDir, 'lock-id');
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{32}$/.test(id)) return id;
  } catch {
    // Not made yet.
  }
  const id = randomBytes(16).toString('hex');
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openPrivateFile(temp, 'w');
  try {
    writeSync(fd, id);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file); // Creates `file` only if absent, whole: two first openers agree.
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  return readFileSync(file, 'utf8').trim();
}

function askHolder(name: string): Promise<LockHolder | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection(name);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, 1000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve(parseHolder(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * The lock-file form. A stale lock is never deleted to be replaced: two processes that both found
 * it stale would each delete what the other had just made and both own the project. Instead each
 * owner makes the next generation, `owner.lock.N+1`, with link() (created only if absent, and
 * whole, never an empty file): of any number of breakers exactly one wins that name, and the others
 * then find it held. Released locks are marked released, not deleted, so the highest generation is
 * always the one that counts; the owner sweeps lower ones.
 */
function tryFile(projectDir: string): LockResult {
  const holder = me();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const top = highestGeneration(projectDir);
    const other =
      top === undefined ? undefined : parseHolder(readOr(generationPath(projectDir, top)));
    if (other && (other.host !== holder.host || alive(other.pid))) {
      return { kind: 'held', holder: other, message: heldMessage(other) };
    }
    const generation = (top ?? 0) + 1;
    const file = generationPath(projectDir, generation);
    if (!createWhole(file, JSON.stringify(holder))) continue; // Another breaker won: look again.
    for (const old of generations(projectDir)) {
      if (old < generation) rmSync(generationPath(projectDir, old), { force: true });
    }
    return {
      kind: 'owner',
      release: async () => {
        if (parseHolder(readOr(file))?.pid !== process.pid) return;
        const temp = `${file}.${process.pid}.released`;
        writeFileSync(temp, '{"released":true}', { mode: 0o600 });
        renameSync(temp, file);
      },
    };
  }
  const top = highestGeneration(projectDir);
  const other =
    top === undefined ? undefined : parseHolder(readOr(generationPath(projectDir, top)));
  return { kind: 'held', holder: other, message: heldMessage(other) };
}

/** `owner.lock` (what older versions wrote) is generation 0. */
function generationPath(projectDir: string, generation: number): string {
  return join(projectDir, generation === 0 ? 'owner.lock' : `owner.lock.${generation}`);
}

function generations(projectDir: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync(projectDir)) {
    const match = /^owner\.lock(?:\.([1-9][0-9]{0,14}))?$/.exec(name);
    if (match) found.push(match[1] === undefined ? 0 : Number(match[1]));
  }
  return found;
}

function highestGeneration(projectDir: string): number | undefined {
  const found = generations(projectDir);
  return found.length === 0 ? undefined : Math.max(...found);
}

/** Creates `file` holding `content`, whole, only if it does not exist; false when it does. */
function createWhole(file: string, content: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openPrivateFile(temp, 'wx');
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    unlinkSync(temp);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.since === 'number'
    )
      return { pid: value.pid, host: value.host, since: value.since };
  } catch {
    // Not a holder record.
  }
  return undefined;
}
