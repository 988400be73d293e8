// The fetch the model's requests go through: node:http(s) in fetch's shape, without undici.
// Node 20's fetch loads undici whole on first use (its dispatchers, http2, tls, webidl): 30-45 ms
// of CPU between `tandem run` and its first request, more than anything else on that path, and a
// few MB of heap for the session (issue 15). What the SDK and provider-fetch.ts need of fetch is
// small: one request with a byte body, the answer's status and headers, its body as a web stream,
// abort by signal. Redirects are returned, not followed (provider-fetch.ts follows them by hand),
// or refused with `redirect: 'error'`; connections are kept alive between turns and an idle one
// closes after IDLE_SOCKET_MS.
import { channel } from 'node:diagnostics_channel';
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { pipeline, type Duplex } from 'node:stream';
import { FetchHeaders } from './fetch-headers';
import { hasBody, HttpResponse, webBody } from './http-response';
import { MODEL_REQUEST_SENT_CHANNEL } from './request-sent';

/** How long a kept-alive connection may sit unused (undici's default keep-alive time too). */
export const IDLE_SOCKET_MS = 4000;

/** fetch's redirect statuses (provider-fetch.ts follows them). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The most Content-Encoding codings an answer may name (undici's limit). */
export const MAX_CONTENT_CODINGS = 5;

const sent = channel(MODEL_REQUEST_SENT_CHANNEL);

type FetchInput = string | URL | Request;

export interface HttpFetchOptions {
  /** How long an unused kept-alive connection stays open; IDLE_SOCKET_MS unless a test says. */
  readonly idleSocketMs?: number;
}

/** node:http's or node:https's `request`, and the agent that keeps its connections. */
interface Transport {
  readonly request: typeof httpRequest;
  readonly agent: Agent;
}

/** A fetch for the provider's requests; each has its own kept-alive connections. */
export function createHttpFetch(options: HttpFetchOptions = {}): typeof fetch {
  const idle = options.idleSocketMs ?? IDLE_SOCKET_MS;
  let plain: Transport | undefined;
  let secure: Promise<Transport> | undefined;
  const transportFor = async (url: URL): Promise<Transport> => {
    if (url.protocol === 'http:') {
      return (plain ??= {
        request: httpRequest,
        agent: new Agent({ keepAlive: true, timeout: idle }),
      });
    }
    // tls loads only for an https provider.
    secure ??= import('node:https').then((https) => ({
      request: https.request,
      agent: new https.Agent({ keepAlive: true, timeout: idle }),
    }));
    return secure;
  };
  return async (input: FetchInput, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== 'string' && !(input instanceof URL)) {
      throw new TypeError('the model fetch takes a URL and options, not a Request');
    }
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`fetch failed: ${url.protocol} is not an http or https address`);
    }
    if (url.username || url.password) {
      throw new TypeError('fetch failed: a URL with a user name or password is not sent');
    }
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new FetchHeaders(init.headers);
    const body = encodeBody(init.body ?? null, headers);
    if (body !== null && (method === 'GET' || method === 'HEAD')) {
      throw new TypeError(`fetch failed: a ${method} request cannot have a body`);
    }
    if (!headers.has('accept')) headers.set('accept', '*/*');
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
    if (body !== null || ['POST', 'PUT', 'PATCH'].includes(method)) {
      headers.set('content-length', String(body?.byteLength ?? 0));
    }
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const transport = await transportFor(url);
    // Aborted while the transport came (node:https loads on first use): send's listener would
    // never hear it, and the request would run on past Stop and the watchdog.
    signal?.throwIfAborted();
    return send(
      { url, method, headers, body, signal, refuseRedirect: init.redirect === 'error' },
      transport,
    );
  };
}

/** The body as bytes, with fetch's default content type; streams and forms are not sent here. */
function encodeBody(
  body: NonNullable<RequestInit['body']> | null,
  headers: FetchHeaders,
): Buffer | null {
  if (body === null) return null;
  const type = (value: string): void => {
    if (!headers.has('content-type')) headers.set('content-type', value);
  };
  if (typeof body === 'string') {
    type('text/plain;charset=UTF-8');
    return Buffer.from(body, 'utf8');
  }
  if (body instanceof URLSearchParams) {
    type('application/x-www-form-urlencoded;charset=UTF-8');
    return Buffer.from(body.toString(), 'utf8');
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('fetch failed: the model fetch sends only text or byte bodies');
}

/** One request as send() puts it on the wire. */
interface Outgoing {
  readonly url: URL;
  readonly method: string;
  readonly headers: FetchHeaders;
  readonly body: Buffer | null;
  readonly signal: AbortSignal | undefined;
  /** fetch's `redirect: 'error'`: a redirect fails the fetch; otherwise it is answered as it came. */
  readonly refuseRedirect: boolean;
}

function send(
  { url, method, headers, body, signal, refuseRedirect }: Outgoing,
  transport: Transport,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let failBody: ((reason: unknown) => void) | undefined;
    const onAbort = (): void => {
      const reason: unknown = signal?.reason;
      if (!settled) {
        settled = true;
        reject(reason);
      }
      failBody?.(reason);
      request.destroy();
    };
    const letGo = (): void => signal?.removeEventListener('abort', onAbort);
    const outgoing: Record<string, string> = {};
    for (const [name, value] of headers) outgoing[name] = value;
    const request: ClientRequest = transport.request(url, {
      method,
      headers: outgoing,
      agent: transport.agent,
      // No socket time limit while a request is on it (the agent's applies to idle sockets only):
      // the provider's watchdog owns the time limits of a request.
      timeout: 0,
    });
    // Set as an answer's head arrives; `settled` waits for its body to be set up.
    let answered = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      letGo();
      reject(new TypeError('fetch failed', { cause: error }));
    };
    // Once an answer's head is in, a request error is the connection's (junk after a whole
    // answer, a reset mid-body): the body's stream reports what the answer lost, as undici does.
    request.on('error', (error) => {
      if (!answered) fail(error);
    });
    // A 101 nobody asked for: node:http hands the socket to this listener, and with none it
    // closes the socket with no error and no answer, and the fetch would wait for the watchdog.
    request.on('upgrade', (_answer: IncomingMessage, socket: Duplex) => {
      answered = true;
      socket.destroy();
      fail(new Error('the server switched protocols unasked'));
    });
    // Any other way the request could end unanswered without an error of its own.
    request.on('close', () => {
      if (!answered) fail(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    });
    request.on('finish', () => {
      if (sent.hasSubscribers) sent.publish({});
    });
    request.on('response', (answer: IncomingMessage) => {
      answered = true;
      // Until the body's stream listens, a broken answer must not throw an unhandled 'error'.
      answer.on('error', () => undefined);
      if (settled) {
        answer.destroy();
        return;
      }
      void respond(url, method, answer, letGo, refuseRedirect).then(
        (made) => {
          settled = true;
          failBody = made.fail;
          resolve(made.response);
        },
        (error: unknown) => {
          settled = true;
          letGo();
          answer.destroy();
          reject(new TypeError('fetch failed', { cause: error }));
        },
      );
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body ?? undefined);
  });
}

/** The Response for `answer`: its headers, and its body decoded as fetch decodes it. */
async function respond(
  url: URL,
  method: string,
  answer: IncomingMessage,
  letGo: () => void,
  refuseRedirect: boolean,
): Promise<{ response: Response; fail?: (reason: unknown) => void }> {
  const status = answer.statusCode ?? 0;
  // fetch's words for it; provider-fetch.ts asks this of a body it could not send twice.
  if (refuseRedirect && REDIRECT_STATUSES.has(status)) throw new Error('unexpected redirect');
  const headers = new FetchHeaders();
  for (let at = 0; at + 1 < answer.rawHeaders.length; at += 2) {
    headers.append(answer.rawHeaders[at] as string, answer.rawHeaders[at + 1] as string);
  }
  const base = { url: url.href, status, statusText: answer.statusMessage ?? '', headers };
  if (!hasBody(method, status)) {
    answer.resume();
    letGo();
    return { response: new HttpResponse({ ...base, body: null }) };
  }
  const source = await decoded(answer, headers.get('content-encoding'));
  const body = webBody(source, answer, letGo);
  return { response: new HttpResponse({ ...base, body: body.stream }), fail: body.fail };
}

/** `answer` through the decoders its Content-Encoding names (last applied, first undone). */
async function decoded(
  answer: IncomingMessage,
  encoding: string | null,
): Promise<NodeJS.ReadableStream & { destroy(error?: Error): void }> {
  const named = encoding === null ? [] : encoding.toLowerCase().split(',');
  // As undici (6.23+, CVE-2026-22036): each coding is a zlib stream of its own, and a 16 KB
  // header could name thousands (~100 MB for one answer).
  if (named.length > MAX_CONTENT_CODINGS) {
    throw new Error(
      `too many content-encodings in response: ${named.length}, maximum allowed is ${MAX_CONTENT_CODINGS}`,
    );
  }
  const codings = named
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  // As fetch: only the codings it knows are undone; anything else is passed on as it came.
  if (codings.length === 0 || codings.some((c) => !['gzip', 'x-gzip', 'deflate', 'br'].includes(c)))
    return answer;
  const zlib = await import('node:zlib');
  // Lenient at the end like undici: a stream cut short yields what it had, not a zlib error.
  const lenient = {
    flush: zlib.constants.Z_SYNC_FLUSH,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  };
  const decoders = codings.reverse().map((coding) => {
    if (coding === 'br') {
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    }
    return coding === 'deflate' ? zlib.createInflate(lenient) : zlib.createGunzip(lenient);
  });
  const last = decoders[decoders.length - 1] as NodeJS.ReadWriteStream & {
    destroy(error?: Error): void;
  };
  pipeline([answer, ...decoders], (error) => {
    if (error) last.destroy(error);
  });
  return last;
}
