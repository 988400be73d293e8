import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/events';
import { applySessionEvents, type SessionEvent, type ShownTrace } from './session-events';
import { EMPTY_TRACE } from './trace-model';
import { applyRunEvent } from './trace-reducer';

const started = (runId: string, sessionId: string, task: string): RunEvent => ({
  type: 'run-started',
  runId,
  sessionId,
  task,
  at: 1,
});
const said = (runId: string, text: string): RunEvent => ({
  type: 'assistant-message',
  runId,
  text,
});
const texts = (shown: ShownTrace): string[] =>
  shown.items.map((item) => (item.kind === 'assistant' || item.kind === 'task' ? item.text : ''));

const fresh: ShownTrace = { ...EMPTY_TRACE, sessionId: null };

describe('applySessionEvents', () => {
  it('folds a batch to the same trace as the events one at a time, and takes its session', () => {
    const events: RunEvent[] = [started('r1', 'a', 'fix it'), said('r1', 'Looking.')];
    for (let i = 0; i < 20; i++) {
      events.push(
        {
          type: 'tool-call-started',
          runId: 'r1',
          callId: `c${i}`,
          name: 'shell',
          args: { command: `make t${i}` },
          effect: 'exec',
          at: i,
        },
        { type: 'tool-output', runId: 'r1', callId: `c${i}`, chunk: `ok ${i}\n` },
        {
          type: 'tool-result',
          runId: 'r1',
          callId: `c${i}`,
          ok: true,
          output: 'ok',
          durationMs: 1,
        },
      );
    }
    const shown = applySessionEvents(
      fresh,
      events.map((event) => ({ sessionId: 'a', event })),
      5,
    );
    const oneByOne = events.reduce((state, event) => applyRunEvent(state, event, 5), EMPTY_TRACE);
    expect(shown).toEqual({ ...oneByOne, sessionId: 'a' });
  });

  it("leaves out another session's events, unless a run of it starts", () => {
    const entries: SessionEvent[] = [
      { sessionId: 'a', event: said('r1', 'mine') },
      { sessionId: 'b', event: said('r0', 'left behind') },
      { sessionId: 'a', event: said('r1', 'mine too') },
      { sessionId: 'b', event: started('r2', 'b', 'new task') },
      { sessionId: 'a', event: said('r1', 'not shown now') },
      { sessionId: 'b', event: said('r2', 'shown') },
    ];
    const shown = applySessionEvents({ ...fresh, sessionId: 'a' }, entries, 0);
    expect(shown.sessionId).toBe('b');
    expect(texts(shown)).toEqual(['mine', 'mine too', 'new task', 'shown']);
  });

  it('returns the same state when nothing in the batch is for it', () => {
    const shown: ShownTrace = { ...fresh, sessionId: 'a' };
    expect(applySessionEvents(shown, [{ sessionId: 'b', event: said('r', 'x') }], 0)).toBe(shown);
  });
});
