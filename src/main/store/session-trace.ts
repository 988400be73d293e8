// A past session's events, to draw its trace again. A command's output was recorded as many small
// chunks; they are joined per call (in order) so the window folds a few events per call, not
// thousands.
import { z } from 'zod';
import type { RunEvent } from '../../shared/events';
import { readTranscript } from './transcript';

/** The recorded events of one transcript, with consecutive output of one call joined. */
export function readSessionEvents(file: string): RunEvent[] {
  // Messages are the model's business; the window only needs the events.
  const { events } = readTranscript(file, noMessages);
  return joinOutput(events);
}

/** Any message line passes and is dropped: the window needs none of their content. */
const noMessages = z.unknown().transform(() => undefined);

export function joinOutput(events: readonly RunEvent[]): RunEvent[] {
  const out: RunEvent[] = [];
  // Where each call's open output event sits in `out`, while it can still grow.
  const open = new Map<string, number>();
  for (const event of events) {
    if (event.type !== 'tool-output') {
      if (event.type === 'tool-result') open.delete(event.callId);
      out.push(event);
      continue;
    }
    const at = open.get(event.callId);
    const previous = at === undefined ? undefined : out[at];
    if (previous?.type === 'tool-output') {
      out[at as number] = { ...previous, chunk: previous.chunk + event.chunk };
    } else {
      open.set(event.callId, out.length);
      out.push(event);
    }
  }
  return out;
}
