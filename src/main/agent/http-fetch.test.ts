// The model's fetch over node:http (http-fetch.ts) against real servers on loopback: what goes on
// the wire, the answer as fetch gives it (status, headers, a streamed body, decoded bodies), aborts
// before and during the answer, broken connections as fetch reports them, kept-alive connections,
// and TLS (a certificate it does not trust is refused; one it is told to trust works).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../../test-support/test-tls';
import { runTsChild } from '../../test-support/ts-child';
import { connectionProblem } from './connection-problem';
import { createHttpFetch } from './http-fetch';
import { MODEL_REQUEST_SENT_CHANNEL } from './request-sent';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

interface Served {
  readonly url: string;
  readonly seen: Seen[];
  /** Connections the server accepted, and those that have closed since. */
  readonly connections: { opened: number; closed: number };
  readonly closedOne: () => Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  server: Server = createServer(),
): Promise<Served> {
  const seen: Seen[] = [];
  const connections = { opened: 0, closed: 0 };
  const waiters: (() => void)[] = [];
  server.on('connection', (socket: Socket) => {
    connections.opened++;
    socket.on('close', () => {
      connections.closed++;
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString(),
      });
      handle(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const scheme = 'cert' in server ? 'https' : 'http';
  return {
    url: `${scheme}://127.0.0.1:${port}/v1/chat`,
    seen,
    connections,
    closedOne: () =>
      connections.closed > 0 ? Promise.resolve() : new Promise((wake) => waiters.push(wake)),
  };
}

/** The whole of `stream` as text. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts).toString();
}

describe('the model fetch over node:http', () => {
  it('sends the method, headers and body, and gives the answer as fetch does', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(201, 'Made', { 'X-One': 'a', 'Set-Cookie': ['s=1', 't=2'] });
      res.end('{"ok":true}');
    });
    const response = await createHttpFetch()(server.url, {
      method: 'post',
      headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' },
      body: '{"model":"m","é":1}',
    });
    expect(server.seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/chat',
      body: '{"model":"m","é":1}',
      headers: {
        authorization: 'Bearer k',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength('{"model":"m","é":1}')),
        accept: '*/*',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    expect(response).toMatchObject({ status: 201, statusText: 'Made', ok: true, url: server.url });
    expect(response.headers.get('x-one')).toBe('a');
    expect(response.headers.getSetCookie()).toEqual(['s=1', 't=2']);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('streams the body: a part is readable before the server has ended', async () => {
    let finish: () => void = () => {};
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await createHttpFetch()(server.url);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('data: one\n\n');
    finish();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += Buffer.from(part.value).toString();
    expect(rest).toBe('data: two\n\n');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('decodes a %s body, as fetch does', async (coding, encode) => {
    const text = 'a body worth compressing '.repeat(400);
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': coding });
      res.end(encode(Buffer.from(text)));
    });
    expect(await (await createHttpFetch()(server.url)).text()).toBe(text);
  });

  it('passes a body of an unknown coding on as it came', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd' });
      res.end('raw bytes');
    });
    expect(await (await createHttpFetch()(server.url)).text()).toBe('raw bytes');
  });

  it('reads a large body whole, through the paused socket', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 'x');
    const server = await serve((_req, res) => res.end(big));
    const response = await createHttpFetch()(server.url);
    expect((await response.arrayBuffer()).byteLength).toBe(big.length);
  });

  it('has no body for 204 and for HEAD', async () => {
    const server = await serve((req, res) => {
      res.writeHead(req.method === 'HEAD' ? 200 : 204, { 'content-length': '5' });
      res.end();
    });
    const fetch = createHttpFetch();
    const none = await fetch(server.url, { method: 'DELETE' });
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
    expect(await none.text()).toBe('');
    expect((await fetch(server.url, { method: 'HEAD' })).body).toBeNull();
  });

  it('answers a redirect as it comes (provider-fetch.ts follows it by hand)', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.invalid/x' });
      res.end();
    });
    const response = await createHttpFetch()(server.url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://elsewhere.invalid/x');
    expect(server.seen).toHaveLength(1);
  });

  it('aborted before the answer: rejects with the signal reason and closes the connection', async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    const pending = createHttpFetch()(server.url, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    });
    while (server.seen.length === 0) await new Promise((wake) => setTimeout(wake, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await server.closedOne();
  });

  it('aborted mid-answer: the body errs with the reason and the connection closes', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200);
      res.write('part');
    });
    const controller = new AbortController();
    const response = await createHttpFetch()(server.url, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const reason = new Error('stopped by the person');
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await server.closedOne();
  });

  it('an already aborted signal sends nothing', async () => {
    const server = await serve((_req, res) => res.end());
    const controller = new AbortController();
    controller.abort();
    await expect(
      createHttpFetch()(server.url, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.connections.opened).toBe(0);
  });

  it('a refused connection is "fetch failed" with the socket error as its cause', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await new Promise((done) => servers.pop()?.close(done));
    const failure = await createHttpFetch()(url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('fetch failed');
    expect(connectionProblem(failure)).toBe('connection refused');
  });

  it('a connection lost mid-answer errs the body with "terminated", cause ECONNRESET', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part of it');
      setImmediate(() => res.socket?.destroy());
    });
    const response = await createHttpFetch()(server.url);
    const failure = await readAll(response.body as ReadableStream<Uint8Array>).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('terminated');
    expect(connectionProblem(failure)).toBe('the connection was reset by the server');
  });

  it('keeps the connection for the next request, and closes it once idle', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const fetch = createHttpFetch({ idleSocketMs: 50 });
    for (let turn = 0; turn < 3; turn++) expect(await (await fetch(server.url)).text()).toBe('ok');
    expect(server.connections.opened).toBe(1);
    await server.closedOne();
    expect(server.connections.closed).toBe(1);
  });

  it('reports each request handed to the socket on the request-sent channel', async () => {
    const server = await serve((_req, res) => res.end());
    let reports = 0;
    const onSent = (): void => void reports++;
    subscribe(MODEL_REQUEST_SENT_CHANNEL, onSent);
    try {
      const fetch = createHttpFetch();
      await fetch(server.url, { method: 'POST', body: 'x' });
      await fetch(server.url);
    } finally {
      unsubscribe(MODEL_REQUEST_SENT_CHANNEL, onSent);
    }
    expect(reports).toBe(2);
  });

  it.each([
    ['a request object', (url: string) => [new Request(url)] as const],
    ['a file: URL', () => ['file:///etc/passwd'] as const],
    ['a URL with credentials', (url: string) => [url.replace('//', '//u:p@')] as const],
    ['a GET with a body', (url: string) => [url, { body: 'x' }] as const],
    [
      'a stream body',
      (url: string) => [url, { method: 'POST', body: new ReadableStream() }] as const,
    ],
    [
      'a CR LF in a header (injection)',
      (url: string) => [url, { headers: { x: 'a\r\nb: c' } }] as const,
    ],
  ])('refuses %s before anything is sent', async (_name, args) => {
    const server = await serve((_req, res) => res.end());
    const fetch = createHttpFetch() as (...a: readonly unknown[]) => Promise<Response>;
    await expect(fetch(...args(server.url))).rejects.toThrow(TypeError);
    expect(server.connections.opened).toBe(0);
  });
});

describe('the model fetch over TLS', () => {
  const tlsServer = (): Server => createTlsServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT });

  it('refuses a server whose certificate it does not trust', async () => {
    const server = await serve((_req, res) => res.end('secret'), tlsServer());
    const failure = await createHttpFetch()(server.url).catch((error: unknown) => error);
    expect((failure as Error).message).toBe('fetch failed');
    expect(connectionProblem(failure)).toBe("the server's TLS certificate is self-signed");
    expect(server.seen).toHaveLength(0);
  });

  it('talks to it when the certificate is trusted (NODE_EXTRA_CA_CERTS, in a child process)', async () => {
    const server = await serve((req, res) => res.end(`hello over ${req.method}`), tlsServer());
    const dir = await mkdtemp(join(tmpdir(), 'tandem-tls-'));
    try {
      await writeFile(join(dir, 'ca.pem'), TEST_TLS_CERT);
      const run = await runTsChild(
        `import { createHttpFetch } from ${JSON.stringify(resolve(__dirname, 'http-fetch.ts'))};\n` +
          `const answer = await createHttpFetch()(${JSON.stringify(server.url)}, { method: 'POST', body: '{}' });\n` +
          `process.stdout.write(answer.status + ' ' + (await answer.text()));\n`,
        { NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') },
      );
      expect(run).toEqual({ code: 0, stdout: '200 hello over POST', stderr: '' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
