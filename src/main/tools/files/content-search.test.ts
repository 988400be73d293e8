// The content search over real files: stated bounds, unreadable folders, FIFOs, big files read
// as streams, encodings, and shards that merge into what one worker would have found.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext, ToolReturn } from '../tool';
import { searchContent, type ContentSearchJob } from './content-search';
import { findFilesTool } from './find-files';
import { listDirTool } from './list-dir';
import { runContentSearch } from './parallel-search';
import { formatSearchReport, searchTool } from './search';

let folder = '';

beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-search-')));
});

afterEach(() => {
  // rm(1) walks with openat, so it also removes folders deeper than PATH_MAX.
  execFileSync('rm', ['-rf', folder]);
});

const write = async (rel: string, content: string | Buffer): Promise<void> => {
  await mkdir(join(folder, rel, '..'), { recursive: true });
  await writeFile(join(folder, rel), content);
};

function job(pattern: string, overrides: Partial<ContentSearchJob> = {}): ContentSearchJob {
  return {
    kind: 'content',
    folder,
    start: folder,
    startRelative: '.',
    startIsFile: false,
    pattern,
    literal: false,
    caseSensitive: true,
    maxResults: 100,
    countLimit: 10_000,
    limits: { maxItems: 100_000, maxCounted: 1_000_000, deadline: Date.now() + 60_000 },
    shard: { index: 0, count: 1 },
    ...overrides,
  };
}

const search = (pattern: string, overrides: Partial<ContentSearchJob> = {}): string =>
  formatSearchReport(searchContent(job(pattern, overrides)), pattern, '.');

function context(): ToolContext {
  return {
    folder,
    sessionId: 's',
    callId: 'c',
    signal: new AbortController().signal,
    onOutput: () => undefined,
    services: {},
  };
}

async function tool(which: typeof searchTool, args: Record<string, unknown>): Promise<string> {
  const result: string | ToolReturn = await which.execute(args as never, context());
  return typeof result === 'string' ? result : result.output;
}

describe('stated bounds', () => {
  beforeEach(async () => {
    for (let i = 0; i < 25; i += 1) await write(`f${String(i).padStart(2, '0')}.txt`, 'nothing\n');
  });

  it('says how many files were searched of how many, also with no matches', () => {
    const limits = { maxItems: 10, maxCounted: 1_000, deadline: Date.now() + 60_000 };
    expect(search('needle', { limits }).split('\n')).toEqual([
      'No matches for "needle" in ..',
      '(Stopped at the limit: searched 10 of 25 files; narrow the path or pattern to see the rest.)',
    ]);
    const counted = { maxItems: 10, maxCounted: 15, deadline: Date.now() + 60_000 };
    expect(search('needle', { limits: counted })).toContain('searched 10 of at least 15 files');
  });

  it('says when the time limit stopped it', () => {
    const limits = { maxItems: 10, maxCounted: 1_000, deadline: Date.now() - 1 };
    expect(search('needle', { limits })).toContain(
      '(Stopped at the 30 s time limit: searched 0 of at least 1 files;',
    );
  });

  it('counts matches not shown, and says when it stopped counting', async () => {
    await write('many.txt', 'hit\n'.repeat(50));
    expect(search('hit', { maxResults: 5 })).toMatch(
      /\n… 45 more matches in 1 file\(s\) not shown/,
    );
    expect(search('hit', { maxResults: 5, countLimit: 10 })).toMatch(
      /… more than 10 more matches \(counting stopped there\) in 1 file\(s\) not shown/,
    );
  });
});

describe('what cannot be read is named', () => {
  it('names a folder deeper than the system path limit; a file whose path is too long is still searched', async () => {
    await write('ok.txt', 'needle\n');
    // Build the deep folder with relative mkdirs: its absolute path passes PATH_MAX (4096).
    const name = 'd'.repeat(250);
    execFileSync('bash', [
      '-c',
      `cd "$1" && for i in $(seq 1 16); do mkdir "$2" && cd "$2"; done`,
      '_',
      folder,
      name,
    ]);
    execFileSync('bash', [
      '-c',
      `cd "$1" && for i in $(seq 1 16); do cd "$2"; done && echo needle > "$3" && mkdir "$2" && echo needle > "$2/x"`,
      '_',
      folder,
      name,
      'f'.repeat(200),
    ]);
    const out = search('needle');
    expect(out).toMatch(/^ok\.txt:1: needle\n/);
    expect(out).toMatch(
      /\(1 folder\(s\) could not be read, so what is in them is missing here: d{250}\/.*\(ENAMETOOLONG\)\)/,
    );
    // Its folder is opened (and verified) by a path short enough; the file is opened through the
    // folder's descriptor, so its own path's length does not matter.
    expect(out).toMatch(/\n(d{250}\/){16}f{200}:1: needle\n/);
    expect(out).not.toMatch(/file\(s\) could not be read/);
  });
});

describe('FIFOs, sockets and devices', () => {
  it('are skipped by search, find_files and list_dir without blocking, even as .gitignore', async () => {
    await write('a.txt', 'needle\n');
    await mkdir(join(folder, 'sub'));
    execFileSync('mkfifo', [join(folder, 'b.pipe'), join(folder, 'sub', '.gitignore')]);
    await write('sub/c.txt', 'needle\n');
    expect((await tool(searchTool, { pattern: 'needle' })).split('\n')).toEqual([
      'a.txt:1: needle',
      'sub/c.txt:1: needle',
      '(2 FIFO(s), socket(s) or device(s) skipped: they are not files.)',
    ]);
    expect(await tool(findFilesTool, { pattern: '*' })).toBe(
      'a.txt\nsub/\nsub/c.txt\n(2 FIFO(s), socket(s) or device(s) skipped: they are not files.)',
    );
    expect(await tool(listDirTool, {})).toBe('./\na.txt\nb.pipe (FIFO)\nsub/');
    await expect(tool(searchTool, { pattern: 'x', path: 'b.pipe' })).rejects.toThrow(
      /FIFO \(named pipe\); only files and folders/,
    );
  });
});

describe('big files are searched as streams', () => {
  it('finds lines past the first block, with their numbers, in CRLF files too', async () => {
    const line = `${'x'.repeat(99)}\r\n`; // 101 bytes
    const lines = 90_000; // about 9 MB: three blocks
    await write('big.txt', `${line.repeat(lines - 1)}the needle at the end$\r\n`);
    expect(search('needle at the end\\$$')).toBe(`big.txt:${lines}: the needle at the end$`);
    expect(search('^x+$', { maxResults: 1, countLimit: 1_000_000 })).toBe(
      `big.txt:1: ${'x'.repeat(99)}\n… ${(lines - 2).toLocaleString('en-US')} more matches in 1 file(s) not shown; narrow the pattern, path or glob.`,
    );
  });

  it('searches a line longer than a block in pieces and says so', async () => {
    await write(
      'long.txt',
      `first\n${'y'.repeat(5 * 1024 * 1024)}needle${'z'.repeat(500)}\nlast\n`,
    );
    const out = search('needle');
    expect(out).toMatch(/^long\.txt:2: …y{100}needlez{194}…\n/);
    expect(out).toContain(
      '(1 line(s) longer than 4 MB were searched in 4 MB pieces; a match across two pieces would be missed.)',
    );
    expect(search('last')).toContain('long.txt:3: last');
  });
});

describe('encodings and binary files', () => {
  it('searches UTF-16 text and skips binary files, counting them', async () => {
    await write(
      'wide.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('one\nfind me\n', 'utf16le')]),
    );
    await write(
      'img.png',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]), Buffer.from('find me')]),
    );
    expect(search('find me').split('\n')).toEqual([
      'wide.txt:2: find me',
      '(1 binary file(s) not searched.)',
    ]);
  });

  it('matches case-insensitively with Unicode case folding', async () => {
    await write('k.txt', 'KELVIN \u212A\nstraße\n');
    expect(search('kelvin k', { caseSensitive: false })).toBe('k.txt:1: KELVIN \u212A');
    expect(search('STRASSE|STRAẞE', { caseSensitive: false })).toBe('k.txt:2: straße');
  });
});

describe('.gitignore', () => {
  it('hides ignored files, but a folder asked for by name is searched, and says so', async () => {
    await write('.gitignore', 'vendor/\n');
    await write('vendor/lib/a.txt', 'needle\n');
    await write('vendor/lib/.gitignore', '*.log\n');
    await write('vendor/lib/b.log', 'needle\n');
    expect(search('needle')).toBe('No matches for "needle" in ..');
    const start = join(folder, 'vendor', 'lib');
    expect(search('needle', { start, startRelative: 'vendor/lib' })).toBe(
      'vendor/lib/a.txt:1: needle\n(This folder is ignored by .gitignore; it was included because the path names it.)',
    );
  });
});

describe('symlinks', () => {
  it('are counted, not followed', async () => {
    await write('a.txt', 'needle\n');
    await symlink(join(folder, 'a.txt'), join(folder, 'alias.txt'));
    expect(search('needle')).toBe(
      'a.txt:1: needle\n(1 symbolic link(s) not followed; their targets inside the project are searched where they are.)',
    );
  });
});

describe('shards', () => {
  it('merge into exactly what one worker finds', async () => {
    for (let i = 0; i < 40; i += 1) {
      const hits = Array.from({ length: i % 4 }, (_, k) => `hit ${i}.${k}`).join('\n');
      await write(`d${i % 3}/f${String(i).padStart(2, '0')}.txt`, `${hits}\nmiss\n`);
    }
    const signal = new AbortController().signal;
    const base = job('hit', { maxResults: 7 });
    const { shard: _shard, ...unsharded } = base;
    void _shard;
    const one = await runContentSearch(unsharded, { signal, hardTimeoutMs: 60_000, threads: 1 });
    const three = await runContentSearch(unsharded, { signal, hardTimeoutMs: 60_000, threads: 3 });
    expect(three.matches).toEqual(one.matches);
    expect(three.leftOut).toBe(one.leftOut);
    expect([...three.filesWithLeftOut].sort()).toEqual([...one.filesWithLeftOut].sort());
    expect(three.bounds).toEqual(one.bounds);
    expect(one.matches.length + one.leftOut).toBe(60);
  });
});
