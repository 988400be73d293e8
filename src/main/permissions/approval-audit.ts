// A session's approvals, read back from its events: who was asked what, and how they answered.
import type { ApprovalRequestedEvent, RunEvent } from '../../shared/events';
import { z } from 'zod';
import type { ApprovalAnswer } from '../../shared/tool-types';
import { parseTranscript } from '../store/transcript';
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
  return parseTranscript(text, z.unknown()).events;
}
