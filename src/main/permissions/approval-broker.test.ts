import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { ApprovalBroker, type ApprovalRequestInput, type RefusedAnswer } from './approval-broker';

function input(callId: string, argsHash = `hash-${callId}`): ApprovalRequestInput {
  return {
    runId: 'r1',
    callId,
    name: 'shell',
    args: { command: 'npm test' },
    argsHash,
    effect: 'exec',
    preview: { kind: 'text', text: 'npm test' },
    reasons: ['needs a yes'],
  };
}

describe('ApprovalBroker', () => {
  it('accepts an answer once, only for a pending request with the matching hash; forgeries are refused and logged', async () => {
    const logged: RefusedAnswer[] = [];
    const events: RunEvent[] = [];
    const broker = new ApprovalBroker({ clock: () => 7, onRefused: (r) => logged.push(r) });
    const { request, outcome } = broker.open(input('c1'), (e) => events.push(e));
    expect(events.map((e) => e.type)).toEqual(['approval-requested']);

    const unknown = broker.answer('no-such-id', request.argsHash, { kind: 'allow-once' });
    expect(unknown).toMatchObject({ ok: false, reason: 'unknown-request' });
    const wrongHash = broker.answer(request.requestId, 'other-args', { kind: 'allow-once' });
    expect(wrongHash).toMatchObject({ ok: false, reason: 'args-mismatch' });
    expect(broker.pending()).toHaveLength(1);

    expect(broker.answer(request.requestId, request.argsHash, { kind: 'allow-session' })).toEqual({
      ok: true,
    });
    await expect(outcome).resolves.toEqual({
      answer: { kind: 'allow-session' },
      by: 'person',
      at: 7,
    });

    const twice = broker.answer(request.requestId, request.argsHash, { kind: 'deny' });
    expect(twice).toMatchObject({ ok: false, reason: 'already-answered' });
    expect(logged.map((r) => r.reason)).toEqual([
      'unknown-request',
      'args-mismatch',
      'already-answered',
    ]);
    expect(broker.refusedAnswers()).toEqual(logged);
    expect(events.map((e) => e.type)).toEqual(['approval-requested', 'approval-resolved']);
  });

  it('keeps several pending requests in order, and stop denies them all', async () => {
    const events: RunEvent[] = [];
    const broker = new ApprovalBroker();
    const opened = ['a', 'b', 'c'].map((id) => broker.open(input(id), (e) => events.push(e)));
    expect(broker.pending().map((p) => p.callId)).toEqual(['a', 'b', 'c']);
    expect(new Set(opened.map((o) => o.request.requestId)).size).toBe(3);

    expect(broker.denyAll('stop')).toBe(3);
    const outcomes = await Promise.all(opened.map((o) => o.outcome));
    expect(outcomes.map((o) => [o.answer.kind, o.by])).toEqual([
      ['deny', 'stop'],
      ['deny', 'stop'],
      ['deny', 'stop'],
    ]);
    expect(broker.pending()).toEqual([]);
    const resolved = events.filter((e) => e.type === 'approval-resolved');
    expect(resolved.map((e) => e.callId)).toEqual(['a', 'b', 'c']);
    // After stop, a late "yes" is refused.
    const late = opened[0]!.request;
    expect(broker.answer(late.requestId, late.argsHash, { kind: 'allow-once' }).ok).toBe(false);
  });

  it('denyAll for one run leaves other runs pending', () => {
    const broker = new ApprovalBroker();
    broker.open(input('a'), () => {});
    broker.open({ ...input('b'), runId: 'r2' }, () => {});
    expect(broker.denyAll('stop', 'r2')).toBe(1);
    expect(broker.pending().map((p) => p.callId)).toEqual(['a']);
  });

  it("refuses an answer its request's check rejects, logs it, and keeps the request pending", async () => {
    const logged: RefusedAnswer[] = [];
    const broker = new ApprovalBroker({ onRefused: (r) => logged.push(r) });
    const { request, outcome } = broker.open(
      input('c1'),
      () => {},
      (answer) =>
        answer.kind === 'allow-always' && answer.widen ? 'not a prefix of the shown command' : null,
    );
    const widened = { kind: 'allow-always', widen: [['curl', 'x']] } as const;
    expect(broker.answer(request.requestId, request.argsHash, widened)).toEqual({
      ok: false,
      reason: 'invalid-answer',
      message:
        'the answer does not fit what the request offered: not a prefix of the shown command',
    });
    expect(logged.map((r) => r.reason)).toEqual(['invalid-answer']);
    expect(broker.pending()).toHaveLength(1);
    expect(broker.answer(request.requestId, request.argsHash, { kind: 'allow-always' }).ok).toBe(
      true,
    );
    await expect(outcome).resolves.toMatchObject({ answer: { kind: 'allow-always' } });
  });

  it('takes an edited answer once, for the shown hash, only when the check allows the edit', async () => {
    const events: RunEvent[] = [];
    const broker = new ApprovalBroker({ clock: () => 9 });
    const { request, outcome } = broker.open(
      input('c1'),
      (e) => events.push(e),
      (_answer, edited) =>
        edited?.kind === 'content' ? 'only the command of shell can be edited' : null,
    );
    const wrongKind = broker.answerEdited(request.requestId, request.argsHash, {
      kind: 'content',
      content: 'x',
    });
    expect(wrongKind).toMatchObject({ ok: false, reason: 'invalid-answer' });
    expect(
      broker.answerEdited(request.requestId, 'other', { kind: 'command', command: 'ls' }),
    ).toMatchObject({ ok: false, reason: 'args-mismatch' });
    const edited = { kind: 'command', command: 'npm test -- --ci' } as const;
    expect(broker.answerEdited(request.requestId, request.argsHash, edited)).toEqual({ ok: true });
    await expect(outcome).resolves.toEqual({
      answer: { kind: 'allow-once' },
      by: 'person',
      at: 9,
      edited,
    });
    expect(events.at(-1)).toMatchObject({ type: 'approval-resolved', edited });
    expect(broker.answerEdited(request.requestId, request.argsHash, edited)).toMatchObject({
      ok: false,
      reason: 'already-answered',
    });
  });
});
