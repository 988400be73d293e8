// What a CLI command may touch of the outside world, so `main` runs in-process in tests.
import type { AnyTool } from '../main/tools/tool';

/** Where text goes; `isTTY` says whether a person's terminal reads it (escapes are then marked). */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  /** Width of the terminal, when it is one. */
  readonly columns?: number;
}

export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly stdin: NodeJS.ReadableStream;
  /** Whether a person can answer questions on the terminal. */
  readonly stdinIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Registers a Ctrl-C handler; returns the function that removes it. */
  readonly onInterrupt?: (handler: () => void) => () => void;
}

/** Parts a test or an embedder may replace. */
export interface CliDeps {
  /** Absent: the built-in tools, with the undo journal and command snapshots the window has. */
  readonly createTools?: () => AnyTool[];
}

/** Process exit codes, one per kind of ending. */
export const EXIT = {
  ok: 0,
  runFailed: 1,
  usage: 2,
  setup: 3,
  maxSteps: 4,
  stopped: 130,
} as const;

/** A failure that ends the command with one line on stderr. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
