// Stopping one running call leaves the run going; a call that never ran reports no duration.
import { afterEach, describe, expect, it } from 'vitest';
import {
  eventsOfType,
  startHarness,
  testTools,
  type Harness,
} from '../../test-support/agent-harness';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

describe('stopping one call', () => {
  it('stops that call only: it is answered as stopped and the run goes on to the next turn', async () => {
    const log: string[] = [];
    harness = await startHarness({
      turns: [{ toolCalls: [{ name: 'wait', arguments: { ms: 60_000 } }] }, { text: 'carried on' }],
      tools: testTools(log),
    });
    const h = harness;
    h.agent.onEvent((event) => {
      if (event.type === 'tool-output') expect(h.agent.stopCall(event.callId)).toBe(true);
    });
    const run = h.agent.startRun('go');
    expect(await run.done).toBe('done');
    const [result] = eventsOfType(h.events, 'tool-result');
    expect(result).toMatchObject({ ok: false, stopped: true });
    // The model is told the person stopped it, with what it printed before.
    expect(result?.output).toMatch(
      /^Stopped by the person after \d+\.\d s: the call did not finish .* The run goes on\.\nOutput before the stop \(the end of it\):\nwaiting$/,
    );
    expect(log).toEqual(['wait:start', 'wait:aborted']);
    expect(eventsOfType(h.events, 'assistant-message').at(-1)?.text).toBe('carried on');
    // Finished calls cannot be stopped again.
    expect(h.agent.stopCall(result!.callId)).toBe(false);
  });

  it('a call the gate refused took no time and was not stopped', async () => {
    harness = await startHarness({
      turns: [{ toolCalls: [{ name: 'note', arguments: { text: 'x' } }] }, { text: 'ok' }],
      gate: async () => ({ kind: 'refuse', message: 'The person denied this call.' }),
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    const [result] = eventsOfType(harness.events, 'tool-result');
    expect(result).toMatchObject({ ok: false, durationMs: 0 });
    expect(result).not.toHaveProperty('stopped');
  });
});
