// `tandem run` in a real pseudo-terminal against the scripted OpenAI-compatible server: the
// header, the approval cards and the answers typed to them, a command's output streaming while
// it runs, its exit code, and the answer drawn as markdown — read off the screen a headless
// xterm.js draws, with colour and without.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedTurn,
} from '../test-support/scripted-openai-server';
import { runCliInPty, type PtyStep } from './pty-screen.test-support';

const roots: string[] = [];
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A fresh project (and data folder) for each run, so no run sees another's history. */
async function freshProject(): Promise<{ root: string; folder: string }> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-cli-pty-')));
  roots.push(root);
  const folder = join(root, 'app');
  await mkdir(folder);
  await writeFile(join(folder, 'notes.txt'), 'old line\nkept\n');
  return { root, folder };
}

const ANSWER = [
  '## Summary',
  '',
  'I changed **notes.txt** and ran the check:',
  '',
  '- `notes.txt`: first line',
  '- the check printed two lines',
  '',
  '| file | change |',
  '|------|--------|',
  '| notes.txt | +1 −1 |',
  '',
  '```sh',
  'cat notes.txt',
  '```',
].join('\n');

// The command waits for a file the test writes only once the first line is on the screen: the
// second line cannot be printed before the first was shown, whatever the machine's speed.
const CHECK =
  "printf 'first line\\n'; until [ -e go ]; do sleep 0.05; done; printf 'second line\\n'; exit 3";

const TURNS: ScriptedTurn[] = [
  {
    toolCalls: [
      {
        id: 'call_1',
        name: 'edit_file',
        arguments: { path: 'notes.txt', old_text: 'old line', new_text: 'new line' },
      },
    ],
  },
  { toolCalls: [{ id: 'call_2', name: 'shell', arguments: { command: CHECK } }] },
  { toolCalls: [{ id: 'call_3', name: 'shell', arguments: { command: 'rm notes.txt' } }] },
  { text: ANSWER },
];

function steps(folder: string): PtyStep[] {
  return [
    { waitFor: '[y] allow once', then: 'y\r' },
    { waitFor: '[y] allow once', then: 'y\r' },
    { waitFor: '│ first line', then: () => writeFile(join(folder, 'go'), '') },
    { waitFor: '[y] allow once', then: 'keep the file\r' },
  ];
}

async function run(env: Record<string, string>, extraArgs: string[] = []) {
  const { root, folder } = await freshProject();
  await server?.close();
  const model = await startScriptedOpenAIServer({ turns: TURNS });
  server = model;
  const result = await runCliInPty({
    args: [
      'run',
      '--folder',
      folder,
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--data-dir',
      join(root, 'data'),
      ...extraArgs,
      'tidy the notes',
    ],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? root,
      OPENAI_API_KEY: 'test',
      TANDEM_USER_DATA_DIR: join(root, 'no-window'),
      ...env,
    },
    steps: steps(folder),
  });
  // The last request holds the whole conversation, with every answer the model was given.
  const toolAnswers =
    model
      .chatBodies()
      .at(-1)
      ?.messages.filter((m) => m.role === 'tool') ?? [];
  return { ...result, screen: normalized(result.lines, folder), toolAnswers };
}

/** The screen with what differs between machines and runs replaced by names. */
function normalized(lines: readonly string[], folder: string): string {
  // The prompt's size (context N of M) moves with every tool description and the prompt's date.
  return lines
    .join('\n')
    .replaceAll(folder, '<folder>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/\((bubblewrap|sandbox-exec): .*\)$|\(not sandboxed\)$/gm, '(<sandbox>)')
    .replace(/sandbox: (bubblewrap|sandbox-exec)|not sandboxed/g, '<sandbox>')
    .replace(/\d+(\.\d)? s\b/g, '<t> s')
    .replace(/\(\d+ ms\)/g, '(<t> ms)')
    .replace(/you allowed it at \d\d:\d\d/g, 'you allowed it at <time>')
    .replace(/\d{14}-[0-9a-f]{8}/g, '<session>')
    .replace(/[\d,]+ of ([\d,]+) tokens \(\d+ %\)/g, '<n> of $1 tokens');
}

// The screen a person sees, the same with colour and without: src/cli/__screens__/tandem-run.txt.
const SCREEN = './__screens__/tandem-run.txt';
const MINUTE = 60_000;

describe('tandem run in a terminal', () => {
  it(
    'with colour: header, cards, answers typed, live output, exit code and the drawn answer',
    async () => {
      const colour = await run({});
      expect(colour.exitCode).toBe(0);
      await expect(colour.screen).toMatchFileSnapshot(SCREEN);

      // The person's answers reached the model: a note denies with its text.
      expect(colour.toolAnswers.map((m) => String(m.content).split('\n')[0])).toEqual([
        'Edited notes.txt: +1 −1.',
        'first line',
        'The person denied this call with a note: keep the file',
      ]);

      // Tandem's own SGR around its words and the diff lines; the output dimmed.
      expect(colour.raw).toContain('\u001b[1mtandem\u001b[22m');
      expect(colour.raw).toContain('\u001b[32m+new line\u001b[39m');
      expect(colour.raw).toContain('\u001b[31m-old line\u001b[39m');
      expect(colour.raw).toContain('\u001b[2m  │ first line\u001b[22m');
      expect(colour.raw).toContain('\u001b[1mSummary\u001b[22m');
    },
    2 * MINUTE,
  );

  it.each<{ how: string; env: Record<string, string>; args: string[] }>([
    { how: 'NO_COLOR=1', env: { NO_COLOR: '1' }, args: [] },
    { how: 'TERM=dumb', env: { TERM: 'dumb' }, args: [] },
    { how: '--no-color', env: {}, args: ['--no-color'] },
  ])(
    'with $how: not one escape sequence, and the same screen',
    async ({ env, args }) => {
      const plain = await run(env, args);
      expect(plain.exitCode).toBe(0);
      expect(plain.raw).not.toContain('\u001b');
      await expect(plain.screen).toMatchFileSnapshot(SCREEN);
    },
    2 * MINUTE,
  );

  it(
    "shows what `npm test` prints, not npm's spinner",
    async () => {
      const { root, folder } = await freshProject();
      await writeFile(
        join(folder, 'package.json'),
        JSON.stringify({
          name: 'app',
          version: '1.0.0',
          scripts: { test: 'echo hello && echo world' },
        }),
      );
      await server?.close();
      server = await startScriptedOpenAIServer({
        turns: [
          { toolCalls: [{ name: 'shell', arguments: { command: 'npm test' } }] },
          { text: 'ok' },
        ],
      });
      const result = await runCliInPty({
        args: [
          'run',
          '--folder',
          folder,
          '--base-url',
          server.baseUrl,
          '--model',
          'm',
          '--data-dir',
          join(root, 'data'),
          'test',
        ],
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? root,
          OPENAI_API_KEY: 'test',
          TANDEM_USER_DATA_DIR: join(root, 'no-window'),
        },
        steps: [{ waitFor: '[y] allow once', then: 'y\r' }],
      });
      expect(result.exitCode).toBe(0);
      const screen = result.lines.join('\n');
      expect(screen).toContain('  │ hello\n  │ world');
      expect(screen).toMatch(/ {2}✓ exit code 0 · \d+(\.\d)? s/);
      // Braille spinner frames redraw themselves with CR: none is left on the screen.
      expect(screen).not.toMatch(/[\u2800-\u28ff]/);
    },
    2 * MINUTE,
  );
});
