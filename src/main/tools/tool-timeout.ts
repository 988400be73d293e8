// Runs one tool call under a time limit and the run's stop signal. A tool that ignores its
// signal cannot hold the run hostage: we stop waiting for it either way.

export type TimedOutcome<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' };

export async function runWithTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  outer: AbortSignal,
): Promise<TimedOutcome<T>> {
  if (outer.aborted) return { kind: 'cancelled' };
  const controller = new AbortController();
  let settle: (outcome: TimedOutcome<T>) => void = () => {};
  const interrupted = new Promise<TimedOutcome<T>>((resolve) => (settle = resolve));
  const onAbort = (): void => {
    controller.abort(outer.reason);
    settle({ kind: 'cancelled' });
  };
  outer.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    settle({ kind: 'timeout' });
  }, timeoutMs);
  try {
    const finished = work(controller.signal).then(
      (value): TimedOutcome<T> => ({ kind: 'done', value }),
      (error: unknown): TimedOutcome<T> => ({ kind: 'threw', error }),
    );
    const outcome = await Promise.race([finished, interrupted]);
    // A tool that rejects because we aborted it is reported as the abort, not as its error.
    if (outcome.kind === 'threw' && controller.signal.aborted) {
      return outer.aborted ? { kind: 'cancelled' } : { kind: 'timeout' };
    }
    return outcome;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
  }
}
