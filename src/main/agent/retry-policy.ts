// When and how long to wait before asking the provider again: 429, 5xx and network faults are
// retried with exponential backoff; a Retry-After from the server wins over our own guess.

export interface RetryOptions {
  /** Attempts in all, including the first. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Delay before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(
  attempt: number,
  options: RetryOptions,
  headers?: { get(name: string): string | null } | null,
  now: number = Date.now(),
): number {
  const hinted = retryAfterMs(headers, now);
  if (hinted !== undefined) return Math.min(hinted, options.maxDelayMs);
  const exponential = options.baseDelayMs * 2 ** (attempt - 1);
  const jitter = 0.8 + Math.random() * 0.4;
  return Math.min(Math.round(exponential * jitter), options.maxDelayMs);
}

export function retryAfterMs(
  headers: { get(name: string): string | null } | null | undefined,
  now: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
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
