// The transcript keeps a tool's streamed output only up to a cap per call: a command that prints
// megabytes would otherwise bloat the file and the memory of every reopen. The live listeners
// still get every chunk, and the tool-result (already bounded) is always recorded whole.
import type { RunEvent } from '../../shared/events';

export const DEFAULT_RECORDED_OUTPUT_CHARS = 256 * 1024;

interface CallOutput {
  recorded: number;
  dropped: number;
}

export class RecordedOutputCap {
  private readonly calls = new Map<string, CallOutput>();

  constructor(private readonly limitChars: number = DEFAULT_RECORDED_OUTPUT_CHARS) {}

  /** The events to write to the transcript in place of `event` (none, it, or it plus a marker). */
  filter(event: RunEvent): RunEvent[] {
    if (event.type === 'tool-output') {
      const call = this.calls.get(event.callId) ?? { recorded: 0, dropped: 0 };
      this.calls.set(event.callId, call);
      const room = this.limitChars - call.recorded;
      if (event.chunk.length <= room) {
        call.recorded += event.chunk.length;
        return [event];
      }
      call.recorded = this.limitChars;
      call.dropped += event.chunk.length - Math.max(0, room);
      return room > 0 ? [{ ...event, chunk: event.chunk.slice(0, room) }] : [];
    }
    if (event.type === 'tool-result') {
      const call = this.calls.get(event.callId);
      this.calls.delete(event.callId);
      if (call?.dropped) {
        const marker: RunEvent = {
          type: 'tool-output',
          runId: event.runId,
          callId: event.callId,
          chunk: `\n[… ${call.dropped} more characters of output were shown live but not recorded in the transcript …]\n`,
        };
        return [marker, event];
      }
    }
    return [event];
  }
}
