// Output held behind a first line: `tandem run`'s header comes before anything of the run, and
// what was written meanwhile follows it in the order it was written, across stdout and stderr.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo, CliOutput } from './cli-io';
import { holdOutput } from './held-output';

/** Both streams write into one log, tagged, so the order across them shows. */
function recordingIo(): { io: CliIo; log: string[]; stdinReads: () => number } {
  const log: string[] = [];
  let reads = 0;
  const stream = (name: string, isTTY: boolean): CliOutput => ({
    write: (text: string) => log.push(`${name}:${text}`),
    isTTY,
    columns: isTTY ? 120 : undefined,
  });
  const stdin = new PassThrough();
  return {
    io: {
      stdout: stream('out', true),
      stderr: stream('err', false),
      get stdin() {
        reads++;
        return stdin;
      },
      stdinIsTTY: false,
      env: { HOME: '/home/ann' },
      cwd: '/work',
    },
    log,
    stdinReads: () => reads,
  };
}

describe('holdOutput', () => {
  it('keeps writes until released, then writes the first line and them in order', () => {
    const { io, log } = recordingIo();
    const held = holdOutput(io);
    held.io.stderr.write('card\n');
    held.io.stdout.write('answer');
    held.io.stderr.write('✓ done\n');
    expect(log).toEqual([]);
    held.release('header\n');
    expect(log).toEqual(['err:header\n', 'err:card\n', 'out:answer', 'err:✓ done\n']);
    held.io.stdout.write(' more');
    expect(log.at(-1)).toBe('out: more');
  });

  it('releases once: a second release writes nothing', () => {
    const { io, log } = recordingIo();
    const held = holdOutput(io);
    held.release('header\n');
    held.release('again\n');
    expect(log).toEqual(['err:header\n']);
  });

  it('passes the rest of the io through, without making stdin before it is read', () => {
    const { io, stdinReads } = recordingIo();
    const held = holdOutput(io);
    expect(stdinReads()).toBe(0);
    expect(held.io.stdout.isTTY).toBe(true);
    expect(held.io.stdout.columns).toBe(120);
    expect(held.io.stderr.isTTY).toBe(false);
    expect(held.io.env).toBe(io.env);
    expect(held.io.cwd).toBe('/work');
    expect(held.io.stdin).toBe(io.stdin);
    expect(stdinReads()).toBe(2);
  });
});
