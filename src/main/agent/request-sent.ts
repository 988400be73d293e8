// When the process has sent a model request and only waits. The model's requests go through
// http-fetch.ts (node:http), which reports on MODEL_REQUEST_SENT_CHANNEL once a request is handed
// to the socket; any other fetch (undici, e.g. an MCP server over HTTP) reports on
// UNDICI_REQUEST_SENT_CHANNEL. Work that would delay the first request (the command warm-up, the
// tokenizer, the CLI's code cache) starts from here. Started any earlier (a setImmediate after the
// SDK was called), the warm-up held the request back by 30-40 ms: the parser compiles on the main
// thread.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export const MODEL_REQUEST_SENT_CHANNEL = 'tandem:model-request:sent';
export const UNDICI_REQUEST_SENT_CHANNEL = 'undici:request:bodySent';
const CHANNELS = [MODEL_REQUEST_SENT_CHANNEL, UNDICI_REQUEST_SENT_CHANNEL];

/**
 * Runs `then` once, after the next request any fetch of this process sends, out of the sender's
 * own call stack (nothing of it runs inside a write path). Returns a cancel, which does nothing
 * once `then` has been scheduled.
 */
export function afterNextRequestSent(then: () => void): () => void {
  let listening = true;
  const cancel = (): void => {
    if (!listening) return;
    listening = false;
    for (const name of CHANNELS) unsubscribe(name, sent);
  };
  function sent(): void {
    cancel();
    setImmediate(then);
  }
  for (const name of CHANNELS) subscribe(name, sent);
  return cancel;
}
