// The fetch the `openai` SDK uses for every provider request (chat turns, the model list, the
// connection test). It follows redirects itself so that a hop to another origin carries none of
// the provider's headers: not the key (Authorization, api-key), not OpenAI-Organization or
// OpenAI-Project (the SDK reads those from OPENAI_ORG_ID / OPENAI_PROJECT_ID), not any custom
// header. fetch's own redirect handling strips Authorization only (issue 11 item 9). The base is
// http-fetch.ts (node:http, no undici: issue 15), which answers a redirect as it comes.
import { FetchHeaders } from './fetch-headers';
import { createHttpFetch, REDIRECT_STATUSES } from './http-fetch';

/** Headers a cross-origin hop keeps: they describe the body and say nothing about the sender. */
const CROSS_ORIGIN_HEADERS: ReadonlySet<string> = new Set(['accept', 'content-type']);

export const MAX_PROVIDER_REDIRECTS = 5;

type FetchInput = string | URL | Request;

/** A fetch with the signature the SDK expects; `base` sends one request (tests pass none). */
export function createProviderFetch(base: typeof fetch = createHttpFetch()): typeof fetch {
  return async (input: FetchInput, init: RequestInit = {}): Promise<Response> => {
    // Not `instanceof Request`: the global Request would load undici (see http-fetch.ts).
    if (typeof input !== 'string' && !(input instanceof URL)) {
      throw new TypeError('the provider fetch takes a URL and options, not a Request');
    }
    const origin = new URL(input).origin;
    let url = new URL(input);
    let method = (init.method ?? 'GET').toUpperCase();
    let headers: Headers = new FetchHeaders(init.headers);
    let body = init.body ?? null;
    if (body !== null && typeof body !== 'string' && !(body instanceof URLSearchParams)) {
      // A stream cannot be sent twice, so it cannot follow a redirect: let fetch refuse those.
      return base(url, { ...init, redirect: 'error' });
    }
    for (let hop = 0; ; hop++) {
      const response = await base(url, { ...init, method, headers, body, redirect: 'manual' });
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
      if (hop >= MAX_PROVIDER_REDIRECTS) {
        await response.body?.cancel();
        throw new TypeError(
          `the provider redirected more than ${MAX_PROVIDER_REDIRECTS} times (last to ${location})`,
        );
      }
      const next = new URL(location, url);
      await response.body?.cancel();
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new TypeError(`the provider redirected to a ${next.protocol} address`);
      }
      // As fetch does: 303, and 301/302 after a POST, become a GET without the body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        if (method !== 'HEAD') method = 'GET';
        body = null;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (next.origin !== origin) headers = crossOriginHeaders(headers);
      url = next;
    }
  };
}

/** Only the headers that describe the body; everything the provider or the SDK added is dropped. */
export function crossOriginHeaders(headers: Headers): Headers {
  const kept = new FetchHeaders();
  headers.forEach((value, name) => {
    if (CROSS_ORIGIN_HEADERS.has(name.toLowerCase())) kept.set(name, value);
  });
  return kept;
}
