// Knows which paths changed since the last look, so a look stats only those (issue 15). One
// inotify watch per folder (Node's non-recursive fs.watch; its recursive mode on Linux watches
// every file and follows symlinks). Events come in order on one inotify queue per process, so a
// flush writes a sentinel file in Tandem's own folder and waits for its event: everything that
// happened before it has then been seen. The watch says it cannot be trusted (and the tracker walks
// instead) when a watch fails, an error is reported, the flush times out, the file system is one
// where inotify misses changes (network, FUSE), or enough events arrived that the kernel queue
// could have overflowed (an overflow drops events silently, and needs a full queue first).
import {
  readFileSync,
  statfsSync,
  unlinkSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../store/private-files';

/** statfs magic numbers of file systems where inotify does not see every change. */
const UNWATCHABLE_FS = new Set([
  0x6969, // NFS
  0x517b, // SMB
  0xff534d42, // CIFS
  0xfe534d42, // SMB2
  0x65735546, // FUSE
  0x01021997, // 9P
  0x00c36400, // Ceph
  0x5346414f, // AFS
]);

const FLUSH_TIMEOUT_MS = 500;

/**
 * Events of every watch of this process: they share one inotify queue, so a burst in another
 * project (or another watch) can overflow it and drop this one's events unseen.
 */
let processEvents = 0;

export type DirtyPaths =
  | { readonly ok: true; readonly paths: ReadonlySet<string> }
  | { readonly ok: false; readonly reason: string };

export class TreeWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private dirty = new Set<string>();
  /** `processEvents` at the last look. */
  private eventsAt = processEvents;
  private broken: string | undefined;
  private flushWatcher: FSWatcher | undefined;
  private flushSeq = 0;
  private flushWaiters = new Map<string, () => void>();
  private readonly eventLimit: number;

  constructor(
    private readonly root: string,
    private readonly flushDir: string,
  ) {
    this.eventLimit = Math.floor(maxQueuedEvents() / 4);
  }

  /** Starts the flush channel; false (with `reason`) when watching cannot be trusted here. */
  start(): boolean {
    // The flush relies on one ordered inotify queue per process, which is how libuv works on
    // Linux; elsewhere events of different folders may arrive in any order, so the tracker walks.
    if (process.platform !== 'linux') this.fail('the change watch is trusted on Linux only');
    try {
      ensurePrivateDir(this.flushDir);
    } catch (error) {
      this.fail(`cannot make ${this.flushDir}: ${(error as Error).message}`);
    }
    for (const dir of [this.root, this.flushDir]) {
      try {
        const type = Number(statfsSync(dir).type);
        if (UNWATCHABLE_FS.has(type >>> 0)) {
          this.fail(
            `${dir} is on a file system (0x${type.toString(16)}) where inotify misses changes`,
          );
        }
      } catch (error) {
        this.fail(`cannot check ${dir}: ${(error as Error).message}`);
      }
    }
    if (this.broken) return false;
    try {
      this.flushWatcher = watch(this.flushDir, { persistent: false }, (_type, name) => {
        const done = name ? this.flushWaiters.get(String(name)) : undefined;
        if (done) done();
      });
      this.flushWatcher.on('error', (error) => this.fail(`flush watch: ${error.message}`));
    } catch (error) {
      this.fail(`cannot watch ${this.flushDir}: ${(error as Error).message}`);
    }
    return !this.broken;
  }

  get reason(): string | undefined {
    return this.broken;
  }

  /** Watches one folder (relative to the root; '' is the root). Must come before reading it. */
  add(rel: string): void {
    if (this.broken || this.watchers.has(rel)) return;
    try {
      const folder = join(this.root, rel);
      const watcher = watch(folder, { persistent: false, encoding: 'buffer' }, (_type, raw) => {
        processEvents += 1;
        const name = raw?.toString('utf8');
        // A name that is not UTF-8 does not survive as a string: the folder is listed again.
        if (name === undefined || !Buffer.from(name, 'utf8').equals(raw as Buffer))
          this.dirty.add(rel === '' ? '.' : rel);
        else this.dirty.add(rel === '' ? name : `${rel}/${name}`);
      });
      watcher.on('error', (error) => this.fail(`watch of ${rel || '.'}: ${error.message}`));
      this.watchers.set(rel, watcher);
    } catch (error) {
      this.fail(`cannot watch ${rel || '.'}: ${(error as Error).message}`);
    }
  }

  /** Stops watching `rel` and every folder below it. */
  removeUnder(rel: string): void {
    const prefix = `${rel}/`;
    for (const [dir, watcher] of this.watchers) {
      if (rel === '' || dir === rel || dir.startsWith(prefix)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
  }

  get watchedFolders(): number {
    return this.watchers.size;
  }

  /** Everything that changed since the last call (after a flush), or why that is not known. */
  async take(): Promise<DirtyPaths> {
    if (!this.broken) await this.flush();
    const paths = this.dirty;
    const events = processEvents - this.eventsAt;
    this.dirty = new Set();
    this.eventsAt = processEvents;
    if (this.broken) return { ok: false, reason: this.broken };
    if (events >= this.eventLimit) {
      return {
        ok: false,
        reason: `${events} change events in this process since the last look (the queue may have overflowed)`,
      };
    }
    return { ok: true, paths };
  }

  /** Drops what was collected (after a full walk made it moot). */
  clear(): void {
    this.dirty = new Set();
    this.eventsAt = processEvents;
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.flushWatcher?.close();
    this.flushWatcher = undefined;
    for (const done of this.flushWaiters.values()) done();
    this.flushWaiters.clear();
  }

  private async flush(): Promise<void> {
    const name = `flush-${process.pid}-${++this.flushSeq}`;
    const file = join(this.flushDir, name);
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), FLUSH_TIMEOUT_MS);
      this.flushWaiters.set(name, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      writeFileSync(file, '', { mode: 0o600 });
    } catch (error) {
      this.fail(`cannot write the flush file: ${(error as Error).message}`);
    }
    const ok = await seen;
    this.flushWaiters.delete(name);
    try {
      unlinkSync(file);
    } catch {
      // Already gone.
    }
    if (!ok && !this.broken) this.fail('the change watch did not answer in time');
  }

  private fail(reason: string): void {
    this.broken ??= reason;
  }
}

function maxQueuedEvents(): number {
  try {
    const value = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    return Number.isFinite(value) && value > 0 ? value : 16384;
  } catch {
    return 16384;
  }
}
