// The model fetch (http-fetch.ts) against a hostile or broken server, byte by byte over raw TCP on
// loopback: every answer settles (resolves or rejects as undici's fetch would), nothing is thrown
// unhandled, and a signal aborted at any moment still ends the request. Each case also names what
// Node's own fetch (undici 6) does with the same bytes, which these rules follow.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionProblem } from './connection-problem';
import { createHttpFetch } from './http-fetch';
import { createProviderFetch } from './provider-fetch';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

/** A TCP server that does `act` with each connection once the request's first bytes arrive. */
async function rawServer(
  act: (socket: Socket) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.on('error', () => undefined);
    socket.once('data', () => act(socket));
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat`,
    connections: () => connections,
  };
}

/** How a fetch ended: its body as text, or the error of the request or of its body. */
async function outcome(answer: Promise<Response>): Promise<string> {
  try {
    const response = await answer;
    return `${response.status} ${JSON.stringify(await response.text())}`;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return `${(error as Error).message} (${connectionProblem(cause ?? error)})`;
  }
}

const http = (head: string, body: Buffer | string = ''): Buffer =>
  Buffer.concat([Buffer.from(`HTTP/1.1 ${head}\r\n\r\n`, 'latin1'), Buffer.from(body)]);

/** `text` gzipped `times` over, and the Content-Encoding that says so. */
function gzipped(text: string, times: number): { head: string; body: Buffer } {
  let body = Buffer.from(text);
  for (let n = 0; n < times; n++) body = gzipSync(body);
  const coding = Array.from({ length: times }, () => 'gzip').join(', ');
  return { head: `200 OK\r\ncontent-encoding: ${coding}\r\ncontent-length: ${body.length}`, body };
}

describe('the model fetch against a hostile server', () => {
  it.each([
    {
      case: 'resets the connection before answering',
      act: (s: Socket) => s.resetAndDestroy(),
      expected: 'fetch failed (the connection was reset by the server)',
    },
    {
      case: 'resets it after the headers',
      act: (s: Socket) => {
        s.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhalf');
        setImmediate(() => s.resetAndDestroy());
      },
      expected: 'terminated (the connection was reset by the server)',
    },
    {
      case: 'closes mid-chunk',
      act: (s: Socket) => {
        s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n');
        setImmediate(() => s.end());
      },
      expected: 'terminated (the connection was reset by the server)',
    },
    {
      case: 'sends two Content-Lengths',
      act: (s: Socket) => s.end(http('200 OK\r\ncontent-length: 5\r\ncontent-length: 6', 'hello!')),
      expected:
        'fetch failed (Parse Error: Duplicate Content-Length (HPE_UNEXPECTED_CONTENT_LENGTH))',
    },
    {
      case: 'sends a body that is not the gzip it says',
      act: (s: Socket) => s.end(http('200 OK\r\ncontent-encoding: gzip', 'not gzip at all')),
      expected: 'terminated (incorrect header check (Z_DATA_ERROR))',
    },
    {
      // undici: TypeError("fetch failed"), cause "bad upgrade". node:http hands such a socket to
      // an 'upgrade' listener, and with none it closes the socket without an error of the request.
      case: 'switches protocols unasked (101 with Upgrade)',
      act: (s: Socket) =>
        s.write(http('101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade', 'x')),
      expected: 'fetch failed (the server switched protocols unasked)',
    },
    {
      // The answer is whole; what follows it on the socket is the connection's problem, not the
      // answer's (undici gives the answer too).
      case: 'sends junk after a whole answer, in the same write',
      act: (s: Socket) =>
        s.end(Buffer.concat([http('200 OK\r\ncontent-length: 2', 'ok'), Buffer.from('JUNK\r\n')])),
      expected: '200 "ok"',
    },
    {
      case: 'sends a body with a 204, in the same write',
      act: (s: Socket) => s.end(http('204 No Content', 'a body it may not have')),
      expected: '204 ""',
    },
    {
      case: 'names five codings (as many as undici undoes)',
      act: (s: Socket) => {
        const { head, body } = gzipped('five deep', 5);
        s.end(http(head, body));
      },
      expected: '200 "five deep"',
    },
    {
      // undici 6.23+ refuses more than five (CVE-2026-22036): each coding is a zlib stream, and a
      // 16 KB header of "br," made ~5000 of them, ~100 MB per answer.
      case: 'names six codings',
      act: (s: Socket) => {
        const { head, body } = gzipped('six deep', 6);
        s.end(http(head, body));
      },
      expected: 'fetch failed (too many content-encodings in response: 6, maximum allowed is 5)',
    },
  ])('$case: $expected', async ({ act, expected }) => {
    const server = await rawServer(act);
    expect(await outcome(createHttpFetch()(server.url, { method: 'POST', body: '{}' }))).toBe(
      expected,
    );
  });

  it('a signal aborted as the fetch starts (before its request is out) still ends it', async () => {
    const server = await rawServer((s) => s.end(http('200 OK\r\ncontent-length: 2', 'ok')));
    const controller = new AbortController();
    const reason = new Error('stopped by the person');
    // The abort lands while the fetch awaits its transport (node:https loads there on first use).
    const pending = createHttpFetch()(server.url, { signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.connections()).toBe(0);
  });

  it("redirect: 'error' refuses a redirect, as fetch does (cause: unexpected redirect)", async () => {
    const server = await rawServer((s) => s.end(http('307 Temporary Redirect\r\nlocation: /v2')));
    const failure = await outcome(
      createHttpFetch()(server.url, { method: 'POST', body: '{}', redirect: 'error' }),
    );
    expect(failure).toBe('fetch failed (unexpected redirect)');
  });

  it('a body that cannot be sent twice is not sent on through a redirect', async () => {
    const server = await rawServer((s) => s.end(http('307 Temporary Redirect\r\nlocation: /v2')));
    const failure = await outcome(
      createProviderFetch()(server.url, { method: 'POST', body: new Uint8Array([1, 2, 3]) }),
    );
    expect(failure).toBe('fetch failed (unexpected redirect)');
  });
});
