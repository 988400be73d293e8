import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, retryAfterMs, retryDecision, sleep } from './retry-policy';

const headers = (values: Readonly<Record<string, string | undefined>>) => ({
  get: (name: string) => values[name] ?? null,
});
const now = Date.parse('Sun, 29 Nov 2026 13:00:00 GMT');

describe('Retry-After', () => {
  it.each([
    { case: 'seconds', values: { 'retry-after': '7' }, ms: 7000 },
    { case: 'fractional seconds', values: { 'retry-after': '1.5' }, ms: 1500 },
    { case: 'HTTP date', values: { 'retry-after': 'Sun, 29 Nov 2026 13:00:05 GMT' }, ms: 5000 },
    {
      case: 'HTTP date in the past',
      values: { 'retry-after': 'Sun, 29 Nov 2026 12:00:00 GMT' },
      ms: 0,
    },
    {
      case: 'retry-after-ms wins',
      values: { 'retry-after-ms': '250', 'retry-after': '9' },
      ms: 250,
    },
    {
      case: 'empty retry-after-ms',
      values: { 'retry-after-ms': '', 'retry-after': '2' },
      ms: 2000,
    },
    { case: 'negative', values: { 'retry-after': '-1' }, ms: undefined },
    { case: 'exponent', values: { 'retry-after': '1e3' }, ms: undefined },
    { case: 'garbage', values: { 'retry-after': 'soon' }, ms: undefined },
    { case: 'absent', values: {}, ms: undefined },
  ])('$case', ({ values, ms }) => {
    expect(retryAfterMs(headers(values), now)).toBe(ms);
  });
});

describe('retry decision', () => {
  const half = () => 0.5; // no jitter

  it.each([
    { case: 'Retry-After in seconds', values: { 'retry-after': '7' }, delayMs: 7000 },
    {
      case: 'Retry-After above our own backoff cap but within the limit',
      values: { 'retry-after': '120' },
      delayMs: 120_000,
    },
    {
      case: 'HTTP date',
      values: { 'retry-after': 'Sun, 29 Nov 2026 13:01:00 GMT' },
      delayMs: 60_000,
    },
    { case: 'retry-after-ms', values: { 'retry-after-ms': '1234' }, delayMs: 1234 },
  ])('waits as the server asks: $case', ({ values, delayMs }) => {
    expect(retryDecision(3, DEFAULT_RETRY, headers(values), now, half)).toEqual({
      kind: 'wait',
      delayMs,
    });
  });

  it.each([
    { values: { 'retry-after': '600' }, askedMs: 600_000 },
    { values: { 'retry-after': 'Sun, 29 Nov 2026 14:00:00 GMT' }, askedMs: 3_600_000 },
  ])('gives up when the server asks for longer than the limit ($askedMs ms)', (row) => {
    expect(retryDecision(1, DEFAULT_RETRY, headers(row.values), now, half)).toEqual({
      kind: 'give-up',
      askedMs: row.askedMs,
    });
  });

  it('backs off exponentially with jitter, capped, without a hint', () => {
    const delays = [1, 2, 3, 10].map(
      (attempt) =>
        (retryDecision(attempt, DEFAULT_RETRY, null, now, half) as { delayMs: number }).delayMs,
    );
    expect(delays).toEqual([500, 1000, 2000, 30_000]);
    const low = retryDecision(2, DEFAULT_RETRY, null, now, () => 0);
    const high = retryDecision(2, DEFAULT_RETRY, null, now, () => 1);
    expect([low, high]).toEqual([
      { kind: 'wait', delayMs: 800 },
      { kind: 'wait', delayMs: 1200 },
    ]);
  });

  it('sleep ends as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sleep(600_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });
});
