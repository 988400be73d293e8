// read_file on files too big to load: the window is streamed to and the rest is never read, so
// memory stays small whatever the size (checked on a 128 MB file), lines keep their numbers,
// long lines and UTF-16 are handled, binary files are described.
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError, type ToolContext, type ToolReturn } from '../tool';
import { readFileTool } from './read-file';

const LINES = 2_000_000;
const MB = 1024 * 1024;
let folder = '';

/** Line n (1-based) of big.txt: 64 bytes, its own number first. */
const lineOf = (n: number): string => `${String(n).padStart(9, '0')} ${'x'.repeat(53)}`;

beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-window-')));
  const fd = openSync(join(folder, 'big.txt'), 'w');
  const perChunk = 16_384;
  for (let first = 1; first <= LINES; first += perChunk) {
    const count = Math.min(perChunk, LINES - first + 1);
    const chunk = Array.from({ length: count }, (_, i) => `${lineOf(first + i)}\n`).join('');
    writeSync(fd, chunk);
  }
  closeSync(fd);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

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

async function read(args: Record<string, unknown>): Promise<string> {
  const result: string | ToolReturn = await readFileTool.execute(args as never, context());
  return typeof result === 'string' ? result : result.output;
}

describe('read_file on a 128 MB file', () => {
  it('shows a window deep in the file without loading the file', async () => {
    await read({ path: 'big.txt', offset: 10, limit: 1 }); // starts the worker: not measured
    const rssBefore = process.memoryUsage().rss;
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    const out = await read({ path: 'big.txt', offset: 1_500_000, limit: 3 });
    const peakAfter = process.resourceUsage().maxRSS * 1024;
    expect(out.split('\n')).toEqual([
      'big.txt (lines 1500000-1500002 of a 122.1 MB file; read in a stream, so the total line count is not known)',
      `1500000\t${lineOf(1_500_000)}`,
      `1500001\t${lineOf(1_500_001)}`,
      `1500002\t${lineOf(1_500_002)}`,
      '… more lines follow; read on with offset=1500003.',
    ]);
    // Loading it whole would take 128 MB for the bytes and about twice that for the text. The
    // peak may not rise at all (an earlier peak can be higher); it must not rise by half the file.
    const growth = peakAfter - Math.max(peakBefore, rssBefore);
    if (process.env.SHOW_MEMORY) console.log({ rssBefore, peakBefore, peakAfter, growth });
    expect(growth).toBeLessThan(64 * MB);
  });

  it('knows the line count once the window reaches the end', async () => {
    expect(await read({ path: 'big.txt', offset: LINES - 1, limit: 10 })).toBe(
      [
        `big.txt (lines ${LINES - 1}-${LINES} of ${LINES})`,
        `${LINES - 1}\t${lineOf(LINES - 1)}`,
        `${LINES}\t${lineOf(LINES)}`,
      ].join('\n'),
    );
    await expect(read({ path: 'big.txt', offset: LINES + 5 })).rejects.toThrow(
      new ToolError(`big.txt has ${LINES} lines; offset ${LINES + 5} is past the end.`),
    );
  });
});

describe('read_file windows on other big files', () => {
  it('cuts a line longer than a block and keeps the numbers after it', async () => {
    await writeFile(join(folder, 'long.txt'), `short\n${'y'.repeat(12 * MB)}\nafter\n`);
    const out = await read({ path: 'long.txt' });
    expect(out.split('\n')).toEqual([
      'long.txt (lines 1-3 of 3)',
      '1\tshort',
      `2\t${'y'.repeat(2000)}… (line cut; it is longer than 4 MB)`,
      '3\tafter',
    ]);
  });

  it('reads UTF-16 and says so; describes binary files', async () => {
    const text = Array.from({ length: 700_000 }, (_, i) => `line ${i + 1}`).join('\n');
    const wide = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    await writeFile(join(folder, 'wide.txt'), wide);
    const size = `${(wide.length / MB).toFixed(1)} MB`;
    expect(await read({ path: 'wide.txt', offset: 600_000, limit: 2 })).toBe(
      [
        `wide.txt (lines 600000-600001 of a ${size} file; read in a stream, so the total line count is not known)`,
        'note: UTF-16LE file',
        '600000\tline 600000',
        '600001\tline 600001',
        '… more lines follow; read on with offset=600002.',
      ].join('\n'),
    );
    await writeFile(join(folder, 'blob.bin'), Buffer.alloc(11 * MB));
    expect(await read({ path: 'blob.bin' })).toBe(
      `blob.bin: binary file (unknown format), ${11 * MB} bytes; not shown.`,
    );
  });
});
