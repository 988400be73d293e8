// V8's code cache for the CLI's own chunks: compiling the bundled chunks a command loads (the
// openai SDK, typebox, ajv, zod...) is a large part of its start-up, and Node 20 has no
// module.enableCompileCache. A chunk of the bundle's folder is compiled with the data V8 made
// for exactly its text (the file is named by a SHA-256 of the text, so a rebuilt chunk never
// meets an old cache) under the same V8 flags (flagsProbe). V8 itself refuses data from another
// V8 or other flags; a SHA-256 trailer catches a damaged file (V8 checks only its header). The
// chunk is then compiled afresh. A chunk without usable data is serialised once its top level
// has run, again when the first model request has been sent (with all the code that took), and
// written at exit. Setting the shell parser's
// --liftoff-only up front instead would void Node's own code cache of its built-in modules.
// The cache lives under $XDG_CACHE_HOME (or ~/.cache)/tandem/v8, in a folder only the user can
// enter (0700) and files only they can read (0600); anything else found there (another owner,
// wider modes, a link) is not read, and then nothing is cached.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants as vmConstants, Script } from 'node:vm';
import { afterNextRequestSent } from '../main/agent/request-sent';
import { codeCacheRoot } from '../main/store/code-cache-dir';

/** A folder with more entries than this is emptied (old builds' chunks pile up otherwise). */
const MAX_ENTRIES = 400;
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** Each file ends with the SHA-256 of the data before it (see intact). */
const DIGEST_BYTES = 32;

export interface CodeCacheReport {
  /** Chunks compiled from their cache. */
  readonly used: string[];
  /** Chunks whose cache V8 refused. */
  readonly rejected: string[];
  /** Chunks compiled without a cache (saved at exit). */
  readonly missing: string[];
}

/** `$XDG_CACHE_HOME/tandem/v8/<node>-<arch>`, else under `~/.cache`. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(codeCacheRoot(env), `${process.version}-${process.arch}`);
}

interface Compile {
  (this: Module, content: string, filename: string): unknown;
}

/**
 * Compiles the chunks of `bundleDir` through the cache in `cacheDir` from now on. Returns what
 * happened to each chunk so far; undefined when the folder is not safe to use (nothing cached).
 */
export function useCodeCache(bundleDir: string, cacheDir: string): CodeCacheReport | undefined {
  if (!safeFolder(cacheDir)) return undefined;
  const report: CodeCacheReport = { used: [], rejected: [], missing: [] };
  const toSave: { data: Buffer; file: string; script: Script; flags: string }[] = [];
  const flagsNow = flagsProbe();
  const proto = Module.prototype as unknown as { _compile: Compile };
  const original = proto._compile;
  proto._compile = function (this: Module, content: string, filename: string): unknown {
    if (dirname(filename) !== bundleDir || content.startsWith('#!')) {
      return original.call(this, content, filename);
    }
    const name = filename.slice(bundleDir.length + 1);
    const flags = flagsNow();
    const hash = createHash('sha256').update(content).digest('hex');
    const file = join(cacheDir, `${hash}-${flags}.v8`);
    const stored = readOwnFile(file);
    const cachedData = stored && intact(stored);
    const script = new Script(Module.wrap(content), {
      filename,
      ...(cachedData ? { cachedData } : {}),
      importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (!stored) report.missing.push(name);
    else if (!cachedData || script.cachedDataRejected) report.rejected.push(name);
    else report.used.push(name);
    const wrapper = script.runInThisContext({ displayErrors: true }) as (
      ...args: unknown[]
    ) => unknown;
    const result = wrapper.call(
      this.exports,
      this.exports,
      createRequire(filename),
      this,
      filename,
      dirname(filename),
    );
    // With the functions its top level compiled (the chunks it required are serialised first).
    if (!cachedData || script.cachedDataRejected) {
      toSave.push({ data: script.createCachedData(), file, script, flags });
    }
    return result;
  };
  // When the first model request has been sent, the code it took has been compiled: serialised
  // again then (those still under the flags they compiled with), the cache holds the whole way
  // to that request.
  afterNextRequestSent(() => {
    const flags = flagsNow();
    for (const entry of toSave) {
      if (entry.flags === flags) entry.data = entry.script.createCachedData();
    }
  });
  process.once('exit', () => {
    if (toSave.length > 0) save(cacheDir, toSave);
  });
  return report;
}

/**
 * Which V8 flags are in force: "a" while they are those the process started with, "b" once they
 * changed (the shell parser sets --liftoff-only when it first loads, earlier or later depending
 * on the command). A chunk gets one cache per state, so commands that load it on either side of
 * that change do not keep refusing each other's. Told by whether V8 still accepts a tiny
 * script's data made at the start (V8 checks the flags' hash for every cache).
 */
function flagsProbe(): () => string {
  // A new text each time (V8 would answer a repeated one from its in-memory cache without
  // looking at the data), of one length (what V8 checks of the text).
  let probes = 0;
  const source = (): string => `"tandem flags probe ${String(probes++).padStart(9, '0')}"`;
  const cachedData = new Script(source()).createCachedData();
  return () => (new Script(source(), { cachedData }).cachedDataRejected ? 'b' : 'a');
}

/** Created 0700 if missing; then it must be a real folder of ours that no one else may enter. */
function safeFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    // Every level Tandem made (…/tandem/v8/<version>): ours, and writable by no one else.
    for (const level of [dir, dirname(dir), dirname(dirname(dir))]) {
      const stat = lstatSync(level);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) return false;
      if ((stat.mode & 0o022) !== 0) return false;
    }
    return (lstatSync(dir).mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** The file's bytes if it is a regular file of ours, readable by no one else; not through links. */
function readOwnFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) return undefined;
    if ((stat.mode & 0o077) !== 0 || stat.size > MAX_CACHE_BYTES) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The data without its SHA-256 trailer, or undefined when they do not match. V8 checks only the
 * header of cached data in a release build: damage past it is deserialised and run as it is (a
 * crash on "unreachable code", or other code), so each file carries a digest of its data.
 */
function intact(stored: Buffer): Buffer | undefined {
  if (stored.length <= DIGEST_BYTES) return undefined;
  const data = stored.subarray(0, stored.length - DIGEST_BYTES);
  const digest = createHash('sha256').update(data).digest();
  return digest.equals(stored.subarray(data.length)) ? data : undefined;
}

/** Written beside, 0600, then renamed into place; a failure leaves no cache, never a broken one. */
function save(cacheDir: string, scripts: readonly { data: Buffer; file: string }[]): void {
  try {
    if (readdirSync(cacheDir).length + scripts.length > MAX_ENTRIES) {
      for (const entry of readdirSync(cacheDir)) rmSync(join(cacheDir, entry), { force: true });
    }
  } catch {
    return;
  }
  for (const { data, file } of scripts) {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      const fd = openSync(temp, 'wx', 0o600);
      try {
        writeSync(fd, data);
        writeSync(fd, createHash('sha256').update(data).digest());
      } finally {
        closeSync(fd);
      }
      renameSync(temp, file);
    } catch {
      try {
        rmSync(temp, { force: true });
      } catch {
        // nothing more to do: the cache is an optimisation
      }
    }
  }
}
