// Run events arrive one IPC message at a time: a command's output comes in many small chunks,
// and folding and drawing the trace for each one makes a long session crawl (the UI benchmark:
// 28,000 events took minutes). The batcher keeps what arrives and hands it over once a frame.
// A hidden window gets no animation frames, so a timer flushes as well.

/** Calls `flush` soon; returns a function that cancels the call. */
export type Scheduler = (flush: () => void) => () => void;

/** The next animation frame, or 100 ms, whichever comes first. */
const nextFrame: Scheduler = (flush) => {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    flush();
  };
  const frame = requestAnimationFrame(run);
  const timer = setTimeout(run, 100);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

export interface FrameBatcher<T> {
  /** Keeps `item` for the next flush (and asks for one). */
  push(item: T): void;
  /** Hands over what is kept now (nothing happens if nothing is). */
  flushNow(): void;
  /** Forgets what is kept (the trace it was for is gone). */
  drop(): void;
}

export function createFrameBatcher<T>(
  flush: (items: readonly T[]) => void,
  schedule: Scheduler = nextFrame,
): FrameBatcher<T> {
  let kept: T[] = [];
  let cancel: (() => void) | null = null;

  function flushNow(): void {
    cancel?.();
    cancel = null;
    if (kept.length === 0) return;
    const items = kept;
    kept = [];
    flush(items);
  }

  return {
    push(item) {
      kept.push(item);
      cancel ??= schedule(flushNow);
    },
    flushNow,
    drop() {
      cancel?.();
      cancel = null;
      kept = [];
    },
  };
}
