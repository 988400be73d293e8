// Runs one command in its own pseudo-terminal and returns when it has ended and nothing it
// started is left. Each call gets its own pty, so each trace card has its own output and exit code.
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import type { IPty } from 'node-pty';
import { commandEnv } from './command-env';
import type { GitMode } from './command-env';
import { OutputCapture } from './output-capture';
import { drainBeforeDestroy } from './pty-drain';
import { killProcessGroup, killProcessTree } from './process-reaper';
import type { ShellSessions } from './shell-sessions';

export interface PtyRunOptions {
  readonly command: string;
  /** Working folder (the project folder). */
  readonly folder: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Raw output as it arrives, colours kept. Not retained here. */
  readonly onData?: (chunk: string) => void;
  /** The person's environment; `process.env` when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Further variable names to keep out of the command's environment. */
  readonly secretNames?: readonly string[];
  /** Secret values (the API key): no variable carrying one reaches the command. */
  readonly secretValues?: readonly string[];
  /** Stricter git settings for a command run without asking; as configured when absent. */
  readonly git?: GitMode;
  /** Wraps the shell's argv, e.g. in bubblewrap. Identity when absent. */
  readonly wrap?: (argv: readonly string[]) => readonly string[];
  /**
   * True when `wrap` runs the command in a pid namespace that the kernel empties when the leader
   * exits (bubblewrap with --unshare-pid and --die-with-parent): after a normal exit only the
   * group is signalled, without scanning every process on the machine. A timeout or stop still
   * scans.
   */
  readonly contained?: boolean;
  /** Silence longer than this before the end means "may be waiting for input". */
  readonly quietMs?: number;
  readonly budgetBytes?: number;
  /** Registers the pty so the person can type into it while it runs. */
  readonly sessions?: ShellSessions;
  readonly callId?: string;
  readonly cols?: number;
  readonly rows?: number;
}

export type PtyEnding = 'exited' | 'timed-out' | 'stopped';

export interface PtyRunResult {
  /** Clean text for the model: no ANSI, overwrites resolved, head and tail within budget. */
  readonly text: string;
  readonly totalBytes: number;
  readonly truncated: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  readonly ending: PtyEnding;
  readonly mayBeWaitingForInput: boolean;
}

export const DEFAULT_QUIET_MS = 10_000;

/**
 * The shell's argv for one command line. bash gets --norc and --noprofile: a bash started with a
 * socket as stdin (as Node's pipes are) takes itself to be run by sshd and sources ~/.bashrc, and
 * no start-up file of the person's should run inside a command Tandem judged.
 */
export function shellArgv(command: string): string[] {
  return existsSync('/bin/bash')
    ? ['/bin/bash', '--norc', '--noprofile', '-c', command]
    : ['/bin/sh', '-c', command];
}

function signalName(signal: number | undefined): string | null {
  if (!signal) return null;
  const entry = Object.entries(constants.signals).find(([, number]) => number === signal);
  return entry ? entry[0] : `signal ${signal}`;
}

// node-pty (a native addon) is loaded by the first command, or when a session opens
// (src/main/agent/session-warm-up.ts), not by every process that imports the shell tool.
let loadingPty: Promise<typeof import('node-pty')> | undefined;

export function loadPty(): Promise<typeof import('node-pty')> {
  loadingPty ??= import('node-pty');
  return loadingPty;
}

export async function runInPty(options: PtyRunOptions): Promise<PtyRunResult> {
  const { spawn } = await loadPty();
  const started = Date.now();
  const argv = (options.wrap ?? ((a: readonly string[]) => a))(shellArgv(options.command));
  const [file, ...args] = argv;
  if (!file) return Promise.reject(new Error('Nothing to run.'));
  const capture = new OutputCapture({ budgetBytes: options.budgetBytes });
  const quietMs = options.quietMs ?? DEFAULT_QUIET_MS;

  return new Promise<PtyRunResult>((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({
        text: '',
        totalBytes: 0,
        truncated: false,
        exitCode: null,
        signal: null,
        durationMs: 0,
        ending: 'stopped',
        mayBeWaitingForInput: false,
      });
      return;
    }
    let term: IPty;
    try {
      term = spawn(file, args, {
        name: 'xterm-256color',
        cols: options.cols ?? 120,
        rows: options.rows ?? 30,
        cwd: options.folder,
        env: commandEnv(
          options.env ?? process.env,
          options.secretNames,
          options.git,
          options.secretValues,
        ),
      });
    } catch (error) {
      reject(
        new Error(
          `Could not start the command: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      return;
    }
    let ending: PtyEnding = 'exited';
    let lastOutputAt = Date.now();
    const leader = term.pid;

    const receive = (chunk: string) => {
      lastOutputAt = Date.now();
      capture.push(chunk);
      try {
        options.onData?.(chunk);
      } catch {
        // A failing listener must not break the command or its capture.
      }
    };
    const dataListener = term.onData(receive);
    drainBeforeDestroy(term, receive);
    const end = (why: PtyEnding) => {
      if (ending !== 'exited') return;
      ending = why;
      killProcessTree(leader);
    };
    const timer = setTimeout(() => end('timed-out'), options.timeoutMs);
    const onAbort = () => end('stopped');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.sessions && options.callId) options.sessions.add(options.callId, term);

    term.onExit(({ exitCode, signal }) => {
      const endedAt = Date.now();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (options.sessions && options.callId) options.sessions.remove(options.callId, term);
      // Background jobs and anything else in the command's session go with it. In a contained run
      // everything lives in a pid namespace whose init dies with the leader (and is in its group,
      // so the group kill reaches it too): the kernel kills the rest when that init goes.
      if (options.contained) killProcessGroup(leader);
      else killProcessTree(leader);
      dataListener.dispose();
      const captured = capture.result();
      const quietAtEnd = endedAt - lastOutputAt >= quietMs;
      resolve({
        text: captured.text,
        totalBytes: captured.totalBytes,
        truncated: captured.truncated,
        exitCode: ending === 'exited' && !signal ? exitCode : null,
        signal: signalName(signal),
        durationMs: endedAt - started,
        ending,
        mayBeWaitingForInput: ending !== 'exited' && quietAtEnd,
      });
    });
  });
}
