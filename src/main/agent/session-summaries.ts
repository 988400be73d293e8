// One line per session of a project, read from its transcripts: when it started, its first task
// as a title, how its last run ended, and the runs and calls in it (for undo by run or call).
import { readFileSync } from 'node:fs';
import type { RunEvent, RunFinishReason } from '../../shared/events';
import { transcriptPath } from '../store/transcript';
import { listSessionIds } from './session';

/** How the last run ended; 'unfinished' when it has no end (still running, or a crash). */
export type SessionStatus = RunFinishReason | 'unfinished' | 'no runs';

export interface SessionRun {
  readonly runId: string;
  readonly task: string;
  readonly startedAt: number;
  readonly reason: RunFinishReason | null;
  /** Calls of the run in order: id, tool name and arguments as the model sent them. */
  readonly calls: readonly {
    readonly callId: string;
    readonly name: string;
    readonly args: unknown;
  }[];
}

export interface SessionSummary {
  readonly id: string;
  /** When the session was created (ms since the epoch), or null when the file does not say. */
  readonly startedAt: number | null;
  /** The first task, as written (the caller makes it safe to show). */
  readonly title: string;
  readonly status: SessionStatus;
  readonly runs: readonly SessionRun[];
  /** Lines that could not be read (a torn last line after a crash). */
  readonly skippedLines: number;
}

interface Line {
  readonly kind?: unknown;
  readonly at?: unknown;
  readonly type?: unknown;
  readonly event?: unknown;
}

/** The sessions of one project, newest first. */
export function listSessionSummaries(dataDir: string, realFolder: string): SessionSummary[] {
  return listSessionIds(dataDir, realFolder).map((id) =>
    summarizeTranscript(id, readFileSync(transcriptPath(dataDir, realFolder, id), 'utf8')),
  );
}

/** One session from its transcript text (JSONL). */
export function summarizeTranscript(id: string, text: string): SessionSummary {
  let startedAt: number | null = null;
  let skippedLines = 0;
  const runs = new Map<string, { run: SessionRun; calls: SessionRun['calls'][number][] }>();
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      skippedLines++;
      continue;
    }
    if (typeof line !== 'object' || line === null) {
      skippedLines++;
      continue;
    }
    if (line.kind === 'meta' && line.type === 'session-created' && typeof line.at === 'number') {
      startedAt ??= line.at;
    }
    if (line.kind !== 'event' || typeof line.event !== 'object' || line.event === null) continue;
    const event = line.event as RunEvent;
    switch (event.type) {
      case 'run-started': {
        const calls: SessionRun['calls'][number][] = [];
        runs.set(event.runId, {
          run: { runId: event.runId, task: event.task, startedAt: event.at, reason: null, calls },
          calls,
        });
        startedAt ??= event.at;
        break;
      }
      case 'tool-call-started':
        runs.get(event.runId)?.calls.push({
          callId: event.callId,
          name: event.name,
          args: event.args,
        });
        break;
      case 'run-finished': {
        const entry = runs.get(event.runId);
        if (entry) runs.set(event.runId, { ...entry, run: { ...entry.run, reason: event.reason } });
        break;
      }
      default:
        break;
    }
  }
  const list = [...runs.values()].map((r) => r.run);
  const last = list.at(-1);
  return {
    id,
    startedAt,
    title: typeof list[0]?.task === 'string' ? list[0].task : '',
    status: last === undefined ? 'no runs' : (last.reason ?? 'unfinished'),
    runs: list,
    skippedLines,
  };
}
