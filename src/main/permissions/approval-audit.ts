// A session's approvals, read back from its events: who was asked what, and how they answered.
import type { ApprovalRequestedEvent, RunEvent } from '../../shared/events';
import type { ApprovalAnswer } from '../../shared/tool-types';
import type { AnsweredBy } from './approval-broker';

export type ApprovalRecord = Omit<ApprovalRequestedEvent, 'type' | 'at' | 'preview'> & {
  readonly requestedAt: number;
  /** Null while unanswered (a crash or a transcript cut short). */
  readonly answer: ApprovalAnswer | null;
  readonly by: AnsweredBy | null;
  readonly resolvedAt: number | null;
};

/** Every approval request in order, paired with its answer. Pure: give it a transcript's events. */
export function listApprovals(events: readonly RunEvent[]): ApprovalRecord[] {
  const records: ApprovalRecord[] = [];
  const index = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'approval-requested') {
      index.set(event.requestId, records.length);
      const { type: _type, at, preview: _preview, ...fields } = event;
      records.push({
        ...fields,
        requestedAt: at,
        answer: null,
        by: null,
        resolvedAt: null,
      });
    } else if (event.type === 'approval-resolved') {
      const at = index.get(event.requestId);
      const record = at === undefined ? undefined : records[at];
      if (at === undefined || !record || record.answer !== null) continue;
      records[at] = { ...record, answer: event.answer, by: event.by, resolvedAt: event.at };
    }
  }
  return records;
}

/** The RunEvents of a transcript (JSONL); lines that are not events, or not JSON, are skipped. */
export function eventsFromTranscript(text: string): RunEvent[] {
  const events: RunEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as { kind?: unknown; event?: unknown };
      if (entry.kind === 'event' && isEventLike(entry.event)) events.push(entry.event);
    } catch {
      // A crash may leave the last line half-written; the rest of the transcript still counts.
    }
  }
  return events;
}

function isEventLike(value: unknown): value is RunEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}
