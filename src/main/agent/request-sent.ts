// When the process has sent a model request and only waits: fetch (undici) reports on this
// channel that a request's body is written to the socket. Work that would delay the first request
// (the command warm-up, the tokenizer, the CLI's code cache) starts from here. Started any earlier
// (a setImmediate after the SDK was called), the warm-up held the request back by 30-40 ms: the
// parser compiles on the main thread.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export const REQUEST_SENT_CHANNEL = 'undici:request:bodySent';

/**
 * Runs `then` once, after the next request body any fetch of this process sends, out of undici's
 * own call stack (nothing of it runs inside fetch's write path). Returns a cancel, which does
 * nothing once `then` has been scheduled.
 */
export function afterNextRequestSent(then: () => void): () => void {
  let listening = true;
  const cancel = (): void => {
    if (!listening) return;
    listening = false;
    unsubscribe(REQUEST_SENT_CHANNEL, sent);
  };
  function sent(): void {
    cancel();
    setImmediate(then);
  }
  subscribe(REQUEST_SENT_CHANNEL, sent);
  return cancel;
}
