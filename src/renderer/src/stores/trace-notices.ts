// The trace's notices: one per failure (a retry notice is replaced by the next retry and removed
// when the run ends; the final error is not repeated by the run's end), and the line a revert
// leaves in the trace.
import type { RunEvent } from '../../../shared/events';
import type { ToolItem, TraceItem } from './trace-model';

type Notice = Extract<TraceItem, { kind: 'notice' }>;

/** Id prefix of the one "retrying" notice a run may show. */
export const RETRY_NOTICE = 'retry-';

export function errorNotice(event: Extract<RunEvent, { type: 'error' }>): Notice {
  return {
    kind: 'notice',
    id: event.retrying ? `${RETRY_NOTICE}${event.runId}` : `error-${event.runId}`,
    runId: event.runId,
    tone: event.retrying ? 'warning' : 'error',
    text: sentence(event.message),
    ...(event.fault ? { fault: event.fault } : {}),
  };
}

/** What a run's end adds to the trace: nothing for a normal end or an error already shown. */
export function finishNotice(
  event: Extract<RunEvent, { type: 'run-finished' }>,
  errorShown: boolean,
): Notice | null {
  switch (event.reason) {
    case 'done':
      return null;
    case 'error':
      if (errorShown) return null;
      return {
        kind: 'notice',
        id: `error-${event.runId}`,
        runId: event.runId,
        tone: 'error',
        text: sentence(event.message ?? 'The run ended with an error.'),
      };
    case 'stopped':
      return {
        kind: 'notice',
        id: `finished-${event.runId}`,
        runId: event.runId,
        tone: 'info',
        text: 'Run stopped.',
      };
    case 'max-steps':
      return {
        kind: 'notice',
        id: `finished-${event.runId}`,
        runId: event.runId,
        tone: 'info',
        text: event.message
          ? `The run reached its step limit. ${sentence(event.message)}`
          : 'The run reached its step limit.',
      };
  }
}

/** Compaction's line: what was summarised, by whom, and the summary the model now reads. */
export function compactedNotice(
  event: Extract<RunEvent, { type: 'context-compacted' }>,
  position: number,
): Notice {
  const n = (value: number): string => value.toLocaleString('en-US');
  return {
    kind: 'notice',
    id: `compacted-${event.runId}-${position}`,
    runId: event.runId,
    tone: 'info',
    text:
      `Context compacted${event.by === 'person' ? ' as you asked' : ' to fit the model’s window'}: ` +
      `the first ${n(event.keptFrom)} messages are sent as this summary ` +
      `(${n(event.tokensBefore)} → ${n(event.tokensAfter)} tokens); the transcript keeps them all.\n\n` +
      event.summary,
  };
}

/** The project's instructions file the prompt took in (a warning when it was empty). */
export function instructionsNotice(
  event: Extract<RunEvent, { type: 'instructions-loaded' }>,
  position: number,
): Notice {
  return {
    kind: 'notice',
    id: `instructions-${event.runId}-${position}`,
    runId: event.runId,
    tone: event.chars === 0 ? 'warning' : 'info',
    text:
      `Project instructions loaded: ${event.file} (${event.chars.toLocaleString('en-US')} characters)` +
      (event.note ? `; ${event.note}` : ''),
  };
}

/** A message as a sentence: capital first letter, a full stop at the end. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const first = trimmed[0] as string;
  const capital = first.toUpperCase() + trimmed.slice(1);
  return /[.!?…)]$/.test(capital) ? capital : `${capital}.`;
}

/** "the edit of notes.txt", "the command `touch two.txt`", for the revert line. */
export function describeRevert(tool: ToolItem): string {
  const args = (typeof tool.args === 'object' && tool.args !== null ? tool.args : {}) as {
    path?: unknown;
    command?: unknown;
  };
  if (tool.name === 'edit_file' && typeof args.path === 'string') return `the edit of ${args.path}`;
  if (tool.name === 'write_file' && typeof args.path === 'string')
    return `the write of ${args.path}`;
  if (tool.name === 'shell' && typeof args.command === 'string')
    return `the changes of \`${args.command.split('\n')[0] ?? ''}\``;
  return `the changes of ${tool.name}`;
}
