// Which of the run events that arrived belong to the trace the window shows, folded in one pass.
import type { RunEvent } from '../../../shared/events';
import type { TraceState } from './trace-model';
import { applyRunEvents } from './trace-reducer';

/** A run event as main sends it: with the session it belongs to. */
export interface SessionEvent {
  readonly sessionId: string;
  readonly event: RunEvent;
}

export type ShownTrace = TraceState & { readonly sessionId: string | null };

/**
 * Folds `entries` (in arrival order) into the shown trace. Events of another session (one the
 * window left while it ran) are not this trace's, unless a run of it starts here: then the
 * window follows that session from then on.
 */
export function applySessionEvents(
  shown: ShownTrace,
  entries: readonly SessionEvent[],
  now: number,
): ShownTrace {
  let sessionId = shown.sessionId;
  const accepted: RunEvent[] = [];
  for (const { sessionId: from, event } of entries) {
    if (sessionId !== null && sessionId !== from && event.type !== 'run-started') continue;
    sessionId = from;
    accepted.push(event);
  }
  if (accepted.length === 0) return shown;
  return { ...applyRunEvents(shown, accepted, now), sessionId };
}
