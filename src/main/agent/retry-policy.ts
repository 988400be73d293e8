// When and how long to wait before asking the provider again: 429, 5xx and network faults are
// retried with exponential backoff; a Retry-After from the server wins over our own guess, and
// one asking for longer than we are willing to wait ends the retries with a clear message.

export interface RetryOptions {
  /** Attempts in all, including the first. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  /** Cap of our own backoff (a server's Retry-After is not cut to it). */
  readonly maxDelayMs: number;
  /** The longest Retry-After we wait out; a server asking more is reported, not retried. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

export interface HeaderSource {
  get(name: string): string | null;
}

export type RetryDecision =
  | { readonly kind: 'wait'; readonly delayMs: number }
  /** The server asked for a wait longer than `maxRetryAfterMs`. */
  | { readonly kind: 'give-up'; readonly askedMs: number };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * How long to wait before attempt `attempt + 1` (attempt counts from 1). A Retry-After is obeyed
 * as given: retrying earlier than the server asked only earns another refusal.
 */
export function retryDecision(
  attempt: number,
  options: RetryOptions,
  headers?: HeaderSource | null,
  now: number = Date.now(),
  random: () => number = Math.random,
): RetryDecision {
  const hinted = retryAfterMs(headers, now);
  if (hinted !== undefined) {
    return hinted > options.maxRetryAfterMs
      ? { kind: 'give-up', askedMs: hinted }
      : { kind: 'wait', delayMs: hinted };
  }
  const exponential = options.baseDelayMs * 2 ** (attempt - 1);
  const jitter = 0.8 + random() * 0.4;
  return { kind: 'wait', delayMs: Math.min(Math.round(exponential * jitter), options.maxDelayMs) };
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** The server's requested wait: `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(
  headers: HeaderSource | null | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && DECIMAL.test(ms)) return Number(ms);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (DECIMAL.test(value)) return Number(value) * 1000;
  // Only an HTTP date ("Sun, 29 Nov 2026 13:00:05 GMT") has letters; "-1" or "1e3" is garbage.
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
