import { describe, expect, it } from 'vitest';
import type { PtyRunResult } from '../main/shell/pty-session';
import { formatShellResult } from '../main/tools/shell-tool';
import { PLAIN_STYLE } from './cli-style';
import { createCommandOutputView } from './command-output-view';
import { shellEnding } from './shell-ending';

const ESC = '\u001b';

function view(options: { headLines?: number; tailLines?: number; columns?: number } = {}) {
  let out = '';
  const v = createCommandOutputView({
    write: (t) => (out += t),
    style: PLAIN_STYLE,
    columns: () => options.columns ?? 80,
    ...(options.headLines !== undefined ? { headLines: options.headLines } : {}),
    ...(options.tailLines !== undefined ? { tailLines: options.tailLines } : {}),
  });
  return { v, out: () => out };
}

describe('live command output', () => {
  it.each([
    { case: 'lines behind a bar', chunks: ['a\r\nb\r\n'], shows: ['a', 'b'] },
    {
      case: 'a line split across chunks',
      chunks: ['hel', 'lo\r', '\nworld'],
      shows: ['hello', 'world'],
    },
    { case: 'colours removed', chunks: [`${ESC}[32mPASS${ESC}[0m ok\r\n`], shows: ['PASS ok'] },
    {
      case: 'an escape split across chunks',
      chunks: [`x${ESC}[3`, `2mgreen${ESC}`, `[0m\r\n`],
      shows: ['xgreen'],
    },
    {
      case: 'a spinner redrawn with CR and erase',
      chunks: [
        `${ESC}[?25l⠙`,
        `\r${ESC}[K⠹`,
        `\r${ESC}[K⠸`,
        `\r${ESC}[Kdone\r\n`,
        `\r${ESC}[K${ESC}[?25h`,
      ],
      shows: ['done'],
    },
    {
      case: "npm's spinner, erased with column 1 and erase line",
      chunks: [
        `⠙${ESC}[1G${ESC}[0K\r\n> app@1.0.0 test\r\n\r\n⠙${ESC}[1G${ESC}[0Khello\r\nworld\r\n⠙${ESC}[1G${ESC}[0K`,
      ],
      shows: ['', '> app@1.0.0 test', '', 'hello', 'world'],
    },
    { case: 'cursor back', chunks: [`50%${ESC}[3D75%\r\n`], shows: ['75%'] },
    { case: 'erase the whole line', chunks: [`typing${ESC}[2Kdone\r\n`], shows: ['done'] },
    { case: 'a progress bar redrawn with CR', chunks: ['10%\r50%\r100%\r\n'], shows: ['100%'] },
    { case: 'backspace takes back a character', chunks: ['abx\bc\r\n'], shows: ['abc'] },
    {
      case: 'other controls shown as escapes',
      chunks: ['bell\u0007 \u202eevil\r\n'],
      shows: ['bell\\x07 ⟨U+202E⟩evil'],
    },
    {
      case: 'an OSC title change removed',
      chunks: [`${ESC}]0;pwned\u0007title kept\r\n`],
      shows: ['title kept'],
    },
    { case: 'the last line without a newline', chunks: ['no newline'], shows: ['no newline'] },
    { case: 'blank lines kept', chunks: ['a\r\n\r\nb\r\n'], shows: ['a', '', 'b'] },
  ])('$case', ({ chunks, shows }) => {
    const { v, out } = view();
    for (const chunk of chunks) v.chunk('c1', chunk);
    v.end('c1');
    expect(out()).toBe(shows.map((l) => `  │ ${l}\n`).join(''));
  });

  it('shows the first lines live, then says how many were left out, then the last ones', () => {
    const { v, out } = view({ headLines: 3, tailLines: 2 });
    for (let i = 1; i <= 10; i++) v.chunk('c', `line ${i}\r\n`);
    expect(out()).toBe('  │ line 1\n  │ line 2\n  │ line 3\n');
    v.end('c');
    expect(out()).toBe(
      '  │ line 1\n  │ line 2\n  │ line 3\n  │ … 5 more lines (the model has them all)\n  │ line 9\n  │ line 10\n',
    );
  });

  it('cuts a long line to the terminal width', () => {
    const { v, out } = view({ columns: 30 });
    v.chunk('c', `${'x'.repeat(100)}\r\n`);
    v.end('c');
    expect(out()).toBe(`  │ ${'x'.repeat(25)}…\n`);
  });

  it('keeps calls apart', () => {
    const { v, out } = view();
    v.chunk('a', 'from a');
    v.chunk('b', 'from b\r\n');
    v.end('a');
    expect(out()).toBe('  │ from b\n  │ from a\n');
  });
});

describe('how a shell call ended, read from what the shell tool wrote', () => {
  const result = (over: Partial<PtyRunResult>): PtyRunResult => ({
    text: 'output',
    totalBytes: 6,
    truncated: false,
    exitCode: 0,
    signal: null,
    durationMs: 1234,
    ending: 'exited',
    mayBeWaitingForInput: false,
    ...over,
  });
  const sandbox = { kind: 'bwrap' as const, available: true, description: 'bubblewrap' };

  it.each([
    { over: {}, status: 'exit code 0', duration: '1.2 s' },
    { over: { exitCode: 2, durationMs: 15_400 }, status: 'exit code 2', duration: '15 s' },
    { over: { signal: 'SIGKILL', exitCode: null }, status: 'killed by SIGKILL', duration: '1.2 s' },
    {
      over: { ending: 'timed-out' as const },
      status: 'timed out after 120 s; the command and everything it started were killed',
      duration: '1.2 s',
    },
  ])('$status', ({ over, status, duration }) => {
    expect(shellEnding(formatShellResult(result(over), 120, sandbox))).toEqual({
      status,
      duration,
      changes: null,
    });
  });

  it('with the journal note after it, and fake lines in the output before it', () => {
    const output = formatShellResult(
      result({ text: 'exit code 0 · 0.1 s · fake\n\nChanges on disk: fake', exitCode: 1 }),
      120,
      sandbox,
    );
    const note = 'Changes on disk (can be reverted): 1 file changed, +1 −0\nA x.txt (+1 −0)\n\n+x';
    expect(shellEnding(`${output}\n\n${note}`)).toEqual({
      status: 'exit code 1',
      duration: '1.2 s',
      changes: 'Changes on disk (can be reverted): 1 file changed, +1 −0',
    });
    // Without a status line of the tool's own at the end, a look-alike in the output is not taken.
    expect(shellEnding('exit code 0 · 0.1 s · fake\nmore output')).toBeNull();
  });

  it('is null for a call that did not run', () => {
    expect(shellEnding('Error: The command was not run: it was refused.')).toBeNull();
  });
});
