// `tandem undo`: puts files back as they were before a call or a whole run of a session, like the
// window's revert buttons (the same journal and the same refusal when a file changed since).
// Without --call or --run it lists what can be undone.
import { relative } from 'node:path';
import { openSessionUndo, type SessionUndo } from '../main/agent/session-undo';
import { revertCallOutcome, revertRunOutcome } from '../main/workspace/revert-outcome';
import type { RevertOutcome } from '../shared/api';
import { CliFailure, EXIT, type CliIo } from './cli-io';
import { styleFor, type CliStyle } from './cli-style';
import type { CliCommand } from './commands';
import { parseProjectFlags, type ProjectFlags } from './project-flags';
import { jsonLine } from './terminal-text';

export const UNDO_USAGE = `Usage: tandem undo --session ID [--call ID | --run ID] [options]

Reverts the file changes of one call, or of every call of a run (newest first), from the undo
journal Tandem keeps for each project (never your own .git). A file that changed since the call
wrote it is not overwritten: the undo stops and says which file. While another Tandem process
(the window, a tandem run) has the project open, nothing is changed: it says which. Without
--call or --run, lists the runs and calls of the session whose changes can still be undone.

Options:
  --session ID     the session (see "tandem sessions")
  --call ID        undo one call
  --run ID         undo every call of one run
  --folder DIR     the project folder (default: the current folder)
  --data-dir DIR   where transcripts and the journal are kept (default: $TANDEM_HOME or ~/.local/share/tandem)
  --json           the outcome (or the list) as JSON
  --no-color       no colour
  -h, --help       show this help

Examples:
  tandem undo --session 20250101120000-1a2b3c4d
  tandem undo --session 20250101120000-1a2b3c4d --call call_2
  tandem undo --session 20250101120000-1a2b3c4d --run 5f0c…

Exit codes: 0 undone (or listed), 1 not undone (a file changed since, or nothing recorded),
2 bad flags, 3 a missing folder or session.
`;

export const undoCommand: CliCommand = {
  name: 'undo',
  summary: 'revert the file changes of a call or a run',
  usage: UNDO_USAGE,
  async run(argv, io) {
    let style = styleFor(io.stdout, io.env, argv.includes('--no-color'));
    try {
      const parsed = parseProjectFlags(argv, io, {
        session: { type: 'string' },
        call: { type: 'string' },
        run: { type: 'string' },
      });
      if (parsed === 'help') {
        io.stdout.write(UNDO_USAGE);
        return EXIT.ok;
      }
      style = styleFor(io.stdout, io.env, parsed.flags.noColor);
      const { session, call, run } = parsed.values;
      if (!session) throw new CliFailure('--session is required', EXIT.usage);
      if (call !== undefined && run !== undefined) {
        throw new CliFailure('give --call or --run, not both', EXIT.usage);
      }
      let undo: SessionUndo;
      try {
        undo = await openSessionUndo(parsed.flags.dataDir, parsed.flags.folder, session);
      } catch (error) {
        throw new CliFailure((error as Error).message, EXIT.setup);
      }
      try {
        if (call !== undefined) {
          return outcome(
            revertCallOutcome(await undo.revertCall(call), parsed.flags.folder),
            parsed.flags,
            io,
            style,
          );
        }
        if (run !== undefined) {
          return outcome(
            revertRunOutcome(await undo.revertRun(run), parsed.flags.folder),
            parsed.flags,
            io,
            style,
          );
        }
        return list(undo, parsed.flags, session, io, style);
      } finally {
        // The project lock goes with the journal: the window may open the project next.
        await undo.close();
      }
    } catch (error) {
      if (!(error instanceof CliFailure)) throw error;
      io.stderr.write(`${style.paint.red('tandem undo:')} ${style.text.line(error.message)}\n`);
      if (error.exitCode === EXIT.usage) io.stderr.write('Try "tandem undo --help".\n');
      return error.exitCode;
    }
  },
};

function outcome(result: RevertOutcome, flags: ProjectFlags, io: CliIo, style: CliStyle): number {
  if (flags.json) io.stdout.write(jsonLine(result));
  else if (result.ok)
    io.stdout.write(`${style.paint.green('✓')} ${style.text.line(result.message)}\n`);
  else io.stderr.write(`${style.paint.red('✗')} ${style.text.line(result.message)}\n`);
  return result.ok ? EXIT.ok : EXIT.runFailed;
}

function list(
  undo: SessionUndo,
  flags: ProjectFlags,
  session: string,
  io: CliIo,
  { paint, text }: CliStyle,
): number {
  const runs = undo.undoable();
  if (flags.json) {
    io.stdout.write(
      jsonLine(
        runs.map((run) => ({
          ...run,
          calls: run.calls.map((c) => ({
            ...c,
            paths: c.paths.map((p) => relative(flags.folder, p)),
          })),
        })),
      ),
    );
    return EXIT.ok;
  }
  if (runs.length === 0) {
    io.stdout.write(`Nothing to undo in session ${text.line(session)}.\n`);
    return EXIT.ok;
  }
  for (const run of runs) {
    io.stdout.write(
      `${paint.bold('run')} ${text.line(run.runId)}  ${paint.dim(text.line(firstLine(run.task)))}\n`,
    );
    for (const call of run.calls) {
      const files = call.paths.map((p) => relative(flags.folder, p) || '.');
      io.stdout.write(
        `  ${paint.cyan(text.line(call.callId))}  ${text.line(call.name)}  ${text.line(files.join(', '))}\n`,
      );
    }
  }
  io.stdout.write(paint.dim('Undo one call with --call ID, or a whole run with --run ID.') + '\n');
  return EXIT.ok;
}

function firstLine(task: string): string {
  const line = task.split('\n')[0] ?? '';
  return line.length > 60 ? `${Array.from(line).slice(0, 59).join('')}…` : line;
}
