// `tandem sessions`: the sessions of one project, newest first — id, when, how the last run ended,
// and the first task as a title — so one can be continued (run --session) or undone (undo).
import { listSessionSummaries, type SessionStatus } from '../main/agent/session-summaries';
import { CliFailure, EXIT, type CliIo } from './cli-io';
import { styleFor, type CliStyle } from './cli-style';
import type { CommandMain } from './commands';
import { displayWidth } from './display-width';
import { parseProjectFlags } from './project-flags';
import { jsonLine } from './terminal-text';

export const SESSIONS_USAGE = `Usage: tandem sessions [--folder DIR] [options]

Lists the sessions of a project folder, newest first: id, start time, how the last run ended
(done, error, stopped, max-steps, unfinished) and the first task.

Options:
  --folder DIR     the project folder (default: the current folder)
  --data-dir DIR   where transcripts are kept (default: $TANDEM_HOME or ~/.local/share/tandem)
  --json           one JSON object per session and line, with its runs
  --no-color       no colour
  -h, --help       show this help

Examples:
  tandem sessions --folder ~/code/app
  tandem run --folder ~/code/app --session <id> "go on"
  tandem undo --folder ~/code/app --session <id>
`;

export const sessionsCommand: CommandMain = async (argv, io) => {
  let style = styleFor(io.stdout, io.env, argv.includes('--no-color'));
  try {
    const parsed = parseProjectFlags(argv, io, {});
    if (parsed === 'help') {
      io.stdout.write(SESSIONS_USAGE);
      return EXIT.ok;
    }
    style = styleFor(io.stdout, io.env, parsed.flags.noColor);
    return listSessions(parsed.flags, io, style);
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    io.stderr.write(`${style.paint.red('tandem sessions:')} ${style.text.line(error.message)}\n`);
    if (error.exitCode === EXIT.usage) io.stderr.write('Try "tandem sessions --help".\n');
    return error.exitCode;
  }
};

function listSessions(
  flags: { folder: string; dataDir: string; json: boolean },
  io: CliIo,
  style: CliStyle,
): number {
  let sessions;
  try {
    sessions = listSessionSummaries(flags.dataDir, flags.folder);
  } catch (error) {
    throw new CliFailure(`cannot read the sessions: ${(error as Error).message}`, EXIT.setup);
  }
  if (flags.json) {
    for (const s of sessions) {
      io.stdout.write(
        jsonLine({
          id: s.id,
          startedAt: s.startedAt === null ? null : new Date(s.startedAt).toISOString(),
          title: s.title,
          status: s.status,
          runs: s.runs.map((r) => ({ runId: r.runId, task: r.task, reason: r.reason })),
        }),
      );
    }
    return EXIT.ok;
  }
  const { paint, text } = style;
  if (sessions.length === 0) {
    io.stdout.write(`No sessions for ${text.line(flags.folder)} in ${text.line(flags.dataDir)}.\n`);
    return EXIT.ok;
  }
  const columns = io.stdout.columns ?? 100;
  const idWidth = Math.max(2, ...sessions.map((s) => s.id.length));
  io.stdout.write(
    paint.dim(`${'ID'.padEnd(idWidth)}  ${'STARTED'.padEnd(16)}  ${'STATUS'.padEnd(10)}  TITLE`) +
      '\n',
  );
  for (const s of sessions) {
    const room = Math.max(20, columns - idWidth - 16 - 10 - 6);
    const title = text.line(cut(s.title.split('\n')[0] ?? '', room));
    io.stdout.write(
      `${text.line(s.id).padEnd(idWidth)}  ${localTime(s.startedAt).padEnd(16)}  ${statusLabel(s.status, style)}  ${title}\n`,
    );
  }
  return EXIT.ok;
}

function statusLabel(status: SessionStatus, { paint }: CliStyle): string {
  const label = status.padEnd(10);
  switch (status) {
    case 'done':
      return paint.green(label);
    case 'error':
      return paint.red(label);
    case 'stopped':
    case 'max-steps':
    case 'unfinished':
      return paint.yellow(label);
    case 'no runs':
      return paint.dim(label);
  }
}

/** "2025-01-31 14:05" in the local time zone, or "?" when unknown. */
export function localTime(at: number | null): string {
  if (at === null) return '?';
  const d = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

function cut(value: string, room: number): string {
  if (displayWidth(value) <= room) return value;
  let out = '';
  for (const char of value) {
    if (displayWidth(out + char) > room - 1) break;
    out += char;
  }
  return `${out}…`;
}
