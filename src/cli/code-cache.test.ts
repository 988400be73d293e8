// The code cache of the CLI's chunks, in a real Node process each time (the hook changes how that
// process compiles CommonJS): a small "bundle" of two chunks that require each other, run by a
// script that turns the cache on and prints what the chunks computed and what the cache did.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CodeCacheReport } from './code-cache';

let root = '';
let bundle = '';
let cache = '';

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tandem-code-cache-'));
  bundle = join(root, 'bundle');
  cache = join(root, 'cache', 'tandem', 'v8', 'this-node');
  mkdirSync(bundle);
  writeChunks('one');
  writeFileSync(join(root, 'outside.js'), 'module.exports = "outside";\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Two chunks; `word` changes what they compute (keep it three letters: same length). */
function writeChunks(word: string): void {
  writeFileSync(
    join(bundle, 'entry-chunk.js'),
    `const other = require('./other-chunk.js');\nmodule.exports = () => other.say('${word}') + ' ' + require('../outside.js') + ' ' + __filename.endsWith('entry-chunk.js');\n`,
  );
  writeFileSync(
    join(bundle, 'other-chunk.js'),
    `exports.say = function say(word) { return 'said ' + word; };\n`,
  );
}

function run(): { output: string; report: CodeCacheReport | null } {
  const script = `
    const { useCodeCache } = require(${JSON.stringify(resolve(__dirname, 'code-cache.ts'))});
    const report = useCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cache)});
    const result = require(${JSON.stringify(join(bundle, 'entry-chunk.js'))})();
    console.log(JSON.stringify({ output: result, report: report ?? null }));
  `;
  const stdout = execFileSync(
    process.execPath,
    [resolve(__dirname, '../../node_modules/tsx/dist/cli.mjs'), '-e', script],
    { encoding: 'utf8' },
  );
  return JSON.parse(stdout) as { output: string; report: CodeCacheReport | null };
}

const cacheFiles = (): string[] => readdirSync(cache).filter((name) => name.endsWith('.v8'));
const BOTH = ['entry-chunk.js', 'other-chunk.js'];

describe('the code cache of the chunks', () => {
  it('is made 0600 in a 0700 folder on the first run and used from the second', () => {
    expect(run()).toEqual({
      output: 'said one outside true',
      report: { used: [], rejected: [], missing: BOTH },
    });
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(cacheFiles()).toHaveLength(2);
    for (const file of cacheFiles()) expect(statSync(join(cache, file)).mode & 0o777).toBe(0o600);
    expect(run()).toEqual({
      output: 'said one outside true',
      report: { used: BOTH, rejected: [], missing: [] },
    });
  });

  it('never runs the code of a chunk as it was: a changed chunk of the same length is compiled afresh', () => {
    run();
    writeChunks('two');
    expect(run()).toEqual({
      output: 'said two outside true',
      report: { used: ['other-chunk.js'], rejected: [], missing: ['entry-chunk.js'] },
    });
  });

  it('compiles afresh when V8 refuses a damaged cache, and replaces it', () => {
    run();
    for (const file of cacheFiles()) {
      const size = statSync(join(cache, file)).size;
      writeFileSync(join(cache, file), Buffer.alloc(size, 7));
    }
    expect(run()).toEqual({
      output: 'said one outside true',
      report: { used: [], rejected: BOTH, missing: [] },
    });
    expect(run().report).toEqual({ used: BOTH, rejected: [], missing: [] });
  });

  // V8 checks the header of cached data (its version, the flags, the text's length) but, in a
  // release build, not the checksum of what follows: damaged code past the header is run as it
  // is, which crashes the process ("unreachable code") or computes something else.
  it.each([
    ['past the header', (data: Buffer) => data.fill(0x41, 24)],
    ['one byte flipped in the middle', (data: Buffer) => void (data[data.length >> 1]! ^= 0xff)],
  ])('compiles afresh from a cache damaged %s, and replaces it', (_, damage) => {
    run();
    for (const file of cacheFiles()) {
      const data = readFileSync(join(cache, file));
      damage(data);
      writeFileSync(join(cache, file), data);
    }
    expect(run()).toEqual({
      output: 'said one outside true',
      report: { used: [], rejected: BOTH, missing: [] },
    });
    expect(run().report).toEqual({ used: BOTH, rejected: [], missing: [] });
  });

  it('does not follow a link in place of a cache file', () => {
    run();
    const [first] = cacheFiles();
    const target = join(root, 'elsewhere.v8');
    writeFileSync(target, readFileSync(join(cache, first!)), { mode: 0o600 });
    rmSync(join(cache, first!));
    symlinkSync(target, join(cache, first!));
    const { report } = run();
    expect(report?.missing).toHaveLength(1);
  });

  it.each([
    ['a folder others may enter', () => chmodSync(cache, 0o755)],
    ['a parent others may write to', () => chmodSync(join(cache, '..'), 0o777)],
  ])('is not used in %s', (_, spoil) => {
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    spoil();
    expect(run()).toEqual({ output: 'said one outside true', report: null });
    expect(cacheFiles()).toEqual([]);
  });

  it('ignores a cache file others may read', () => {
    run();
    for (const file of cacheFiles()) chmodSync(join(cache, file), 0o644);
    expect(run().report).toEqual({ used: [], rejected: [], missing: BOTH });
  });
});
