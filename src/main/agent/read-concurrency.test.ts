// Many calls in one turn: reads run side by side, but no more than a few at once; every call may
// wait on the turn's stop signal at once, which the turn bounds (Node warns past 10 by default).
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionGate } from '../permissions/gate';
import {
  allowAll,
  eventsOfType,
  startHarness,
  testTools,
  type Harness,
} from '../../test-support/agent-harness';
import { MAX_CONCURRENT_READS } from './tool-calls';

let harness: Harness | undefined;
const warnings: Error[] = [];
const onWarning = (warning: Error): void => void warnings.push(warning);
afterEach(async () => {
  process.off('warning', onWarning);
  warnings.length = 0;
  await harness?.cleanup();
  harness = undefined;
});

describe('many reads in one turn', () => {
  it('40 concurrent reads: all answered in order, no listener warning, a few at a time', async () => {
    process.on('warning', onWarning);
    const log: string[] = [];
    const calls = Array.from({ length: 40 }, (_, i) => ({
      name: i % 2 ? 'wait' : 'echo',
      arguments: i % 2 ? { ms: 5 } : { text: `r${i}` },
    }));
    harness = await startHarness({
      tools: testTools(log),
      turns: [{ toolCalls: calls }, { text: 'ok' }],
    });
    let running = 0;
    let most = 0;
    harness.agent.onEvent((event) => {
      if (event.type === 'tool-call-started') most = Math.max(most, ++running);
      if (event.type === 'tool-result') running--;
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    // Let any warning emitted on process.nextTick arrive.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(MAX_CONCURRENT_READS);
    const answers = harness.server.chatBodies()[1]!.messages.filter((m) => m.role === 'tool');
    expect(answers.map((m) => m.tool_call_id)).toEqual(calls.map((_, i) => `call_0_${i}`));
    expect(eventsOfType(harness.events, 'tool-result')).toHaveLength(40);
  });

  it('30 writes waiting their turn in the gate: one listener each, on the turn, no warning', async () => {
    process.on('warning', onWarning);
    const log: string[] = [];
    // Like the permission gate: every call of the turn waits for the calls before it, listening
    // for the stop meanwhile.
    const gate: PermissionGate = async (request, emit, signal) => {
      const stop = (): void => {};
      signal.addEventListener('abort', stop, { once: true });
      await request.ready;
      signal.removeEventListener('abort', stop);
      return allowAll(request, emit, signal);
    };
    const calls = Array.from({ length: 30 }, (_, i) => ({
      name: 'note',
      arguments: { text: `w${i}` },
    }));
    harness = await startHarness({
      tools: testTools(log),
      gate,
      turns: [{ toolCalls: calls }, { text: 'ok' }],
    });
    expect(await harness.agent.startRun('go').done).toBe('done');
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    expect(log).toEqual(calls.map((_, i) => `note:w${i}`));
  });
});
