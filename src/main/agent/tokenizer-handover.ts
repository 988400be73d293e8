// A session's first request need not wait for its tokenizer (o200k: 2.4 MB of tables, about
// 0.3 s to load). While it loads, messages are counted by their UTF-8 bytes, an upper bound of
// any byte-level BPE count; a request that fits whole by that bound fits whole by the tokenizer
// too, so it goes out exactly as the tokenizer would have sent it. Only the session's first fit
// may go by the bound, and only when nothing would be cut: a long reopened session, where fitting
// decides what is sent, waits for the tokenizer as before. The tokenizer starts loading once the
// first request's body has been sent (the process then only waits for the model) and is counted
// with from the next fit on. The counter is switched only at the start of a fit, so a request's
// usage always calibrates the counter that counted it.
import type { ModelWindow } from './model-window';
import { afterNextRequestSent } from './request-sent';
import {
  byteEstimate,
  loadedTokenizer,
  loadTokenizer,
  MessageCounter,
  utf8Bound,
  type TextCounter,
} from './token-counter';

export interface CountingHandover {
  /**
   * Before each fit. `fitsWhole` says whether the request fits with nothing cut as counted now;
   * when it does not (or this is not the session's first fit), the tokenizer is waited for.
   */
  beforeFit(fitsWhole: () => boolean): Promise<void>;
  /** Waits for the tokenizer, for a compaction asked for between runs. */
  exact(): Promise<void>;
}

const SETTLED: CountingHandover = {
  beforeFit: async () => undefined,
  exact: async () => undefined,
};

/**
 * The session's counter: the byte estimate for a model whose encoding is not known, the
 * tokenizer when it has loaded already in this process, else the upper bound until it has.
 */
export function sessionCounter(
  window: Pick<ModelWindow, 'encoding'>,
  load: (encoding: NonNullable<ModelWindow['encoding']>) => Promise<TextCounter> = loadTokenizer,
): { counter: MessageCounter; counting: CountingHandover } {
  const encoding = window.encoding;
  if (!encoding) return { counter: new MessageCounter(byteEstimate()), counting: SETTLED };
  const loadedAlready = loadedTokenizer(encoding);
  if (loadedAlready) return { counter: new MessageCounter(loadedAlready), counting: SETTLED };
  const counter = new MessageCounter(utf8Bound());
  // A tokenizer that will not load leaves the byte estimate, as for an unknown model.
  return { counter, counting: handOver(counter, () => load(encoding).catch(() => byteEstimate())) };
}

/** `load` should not reject: a fit that waits for it fails with its error. */
export function handOver(
  counter: MessageCounter,
  load: () => Promise<TextCounter>,
): CountingHandover {
  let loading: Promise<TextCounter> | undefined;
  let fits = 0;
  let switched = false;
  let stopListening = (): void => {};
  const start = (): Promise<TextCounter> => {
    stopListening();
    loading ??= load();
    return loading;
  };
  const exact = async (): Promise<void> => {
    if (switched) return;
    const tokenizer = await start();
    if (!switched) counter.countWith(tokenizer);
    switched = true;
  };
  return {
    async beforeFit(fitsWhole) {
      if (switched) return;
      if (fits++ === 0 && fitsWhole()) {
        stopListening = afterNextRequestSent(() => void start().catch(() => undefined));
        return;
      }
      await exact();
    },
    exact,
  };
}
