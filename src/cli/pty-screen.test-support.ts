// Runs the real CLI in a pseudo-terminal (node-pty), answers prompts as a person would, and
// draws what it wrote with a headless xterm.js, so a test reads the screen a person would see.
import xtermHeadless from '@xterm/headless';
import { spawn } from 'node-pty';

const { Terminal } = xtermHeadless;

export interface PtyStep {
  /** Waits until the screen's text (escapes removed) contains this, after the previous step. */
  readonly waitFor: string;
  /** Then types this (a "\r" is Enter), or runs this. */
  readonly then: string | (() => void | Promise<void>);
}

export interface PtyRun {
  readonly exitCode: number;
  /** Everything the CLI wrote, escapes included. */
  readonly raw: string;
  /** The screen and scrollback as lines, wrapped lines joined, trailing blanks removed. */
  readonly lines: readonly string[];
}

export interface PtyRunOptions {
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly steps?: readonly PtyStep[];
  readonly cols?: number;
  /** Gives up (and fails the test) after this long without an exit; generous for loaded machines. */
  readonly timeoutMs?: number;
}

// eslint-disable-next-line no-control-regex -- removing escapes to look for text is the point
const ANSI = /\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-_])/g;

export async function runCliInPty(options: PtyRunOptions): Promise<PtyRun> {
  const cols = options.cols ?? 160;
  const pty = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...options.args], {
    cols,
    rows: 40,
    cwd: process.cwd(),
    env: { TERM: 'xterm-256color', ...options.env },
  });
  let raw = '';
  const steps = [...(options.steps ?? [])];
  let searchFrom = 0;
  let busy = false;
  const advance = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      for (let step = steps[0]; step; step = steps[0]) {
        const text = raw.replace(ANSI, '');
        const at = text.indexOf(step.waitFor, searchFrom);
        if (at < 0) return;
        searchFrom = at + step.waitFor.length;
        steps.shift();
        if (typeof step.then === 'string') pty.write(step.then);
        else await step.then();
      }
    } finally {
      busy = false;
    }
  };
  const exitCode = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      pty.kill();
      reject(
        new Error(
          `the CLI did not exit; waiting for ${JSON.stringify(steps[0]?.waitFor)}; screen:\n${raw.replace(ANSI, '')}`,
        ),
      );
    }, options.timeoutMs ?? 60_000);
    pty.onData((data) => {
      raw += data;
      void advance();
    });
    pty.onExit(({ exitCode }) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (steps.length > 0) {
    throw new Error(`the CLI exited before showing ${JSON.stringify(steps[0]?.waitFor)}:\n${raw}`);
  }
  return { exitCode, raw, lines: await screenLines(raw, cols) };
}

async function screenLines(raw: string, cols: number): Promise<string[]> {
  const term = new Terminal({ cols, rows: 40, scrollback: 5000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(raw, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) {
    const line = buffer.getLine(i);
    if (!line) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  term.dispose();
  return lines;
}
