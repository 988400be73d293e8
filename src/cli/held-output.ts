// Output that waits for its first line. `tandem run` prints its header before anything of the run,
// but the header names the sandbox, known only once its probe has run (after the first model
// request went out, see header-sandbox.ts): what the run prints meanwhile is kept, in the order it
// was written, and follows the header.
import type { CliIo, CliOutput } from './cli-io';

export interface HeldOutput {
  /** The same io, except that stdout and stderr keep what is written until `release`. */
  readonly io: CliIo;
  /**
   * Writes `first` to stderr, then what was kept, in the order it was written (across both
   * streams); later writes go straight through. Only the first call does anything.
   */
  release(first: string): void;
}

export function holdOutput(io: CliIo): HeldOutput {
  let held: { readonly to: CliOutput; readonly text: string }[] | null = [];
  const holding = (to: CliOutput): CliOutput => ({
    write(text: string): unknown {
      if (held === null) return to.write(text);
      held.push({ to, text });
      return true;
    },
    get isTTY() {
      return to.isTTY;
    },
    get columns() {
      return to.columns;
    },
  });
  const stdout = holding(io.stdout);
  const stderr = holding(io.stderr);
  return {
    io: {
      stdout,
      stderr,
      // A getter, as in processIo: process.stdin is made on first use (a few ms), if ever.
      get stdin() {
        return io.stdin;
      },
      stdinIsTTY: io.stdinIsTTY,
      env: io.env,
      cwd: io.cwd,
      ...(io.onInterrupt ? { onInterrupt: io.onInterrupt } : {}),
    },
    release(first) {
      if (held === null) return;
      const kept = held;
      held = null;
      io.stderr.write(first);
      for (const { to, text } of kept) to.write(text);
    },
  };
}
