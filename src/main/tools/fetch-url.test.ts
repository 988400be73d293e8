import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchUrlTool } from './fetch-url';
import { nonPublicReason } from './network/address-guard';
import { FetchRefused, guardedGet } from './network/guarded-http';
import { ToolError, type ToolContext, type ToolReturn } from './tool';

let server: Server;
let port = 0;
const requests: string[] = [];

// Counts TCP client sockets created, to prove a refusal happened before any connection attempt.
let sockets = 0;
const onSocket = () => {
  sockets += 1;
};

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    switch (req.url) {
      case '/page':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          '<html><head><style>p{}</style><script>evil()</script></head><body><h1>Title</h1><p>Hello <b>world</b>.</p><a href="/x">link</a></body></html>',
        );
        return;
      case '/gz':
        res.setHeader('content-type', 'text/plain');
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync('x'.repeat(50_000)));
        return;
      case '/to-loopback':
        res.statusCode = 302;
        res.setHeader('location', `http://127.0.0.2:${port}/page`);
        res.end();
        return;
      case '/to-localhost':
        res.statusCode = 301;
        res.setHeader('location', `http://localhost:${port}/page`);
        res.end();
        return;
      case '/to-page':
        res.statusCode = 307;
        res.setHeader('location', '/page');
        res.end();
        return;
      case '/loop':
        res.statusCode = 302;
        res.setHeader('location', '/loop');
        res.end();
        return;
      default:
        res.statusCode = 404;
        res.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  subscribe('net.client.socket', onSocket);
});

afterAll(async () => {
  unsubscribe('net.client.socket', onSocket);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
  sockets = 0;
});
afterEach(() => undefined);

function context(allowPrivateNetwork: boolean): ToolContext {
  return {
    folder: '/nonexistent',
    sessionId: 's',
    callId: 'c',
    signal: new AbortController().signal,
    onOutput: () => undefined,
    services: { allowPrivateNetwork },
  };
}

async function fetchText(url: string, allow: boolean): Promise<ToolReturn> {
  const result = await fetchUrlTool.execute({ url } as never, context(allow));
  return typeof result === 'string' ? { output: result } : result;
}

async function refusal(url: string, allow = false): Promise<string> {
  try {
    await fetchText(url, allow);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

/** Lets the first hop to 127.0.0.1 through (standing in for a public server), then the real rule. */
function firstHopPolicy() {
  let first = true;
  return (address: string) => {
    if (first && address === '127.0.0.1') {
      first = false;
      return undefined;
    }
    return nonPublicReason(address);
  };
}

describe('fetch_url', () => {
  it('declares a url target and preview', async () => {
    expect(fetchUrlTool.effect).toBe('network');
    expect(fetchUrlTool.target?.({ url: 'https://example.com' } as never, context(false))).toEqual({
      kind: 'url',
      url: 'https://example.com',
    });
    expect(
      await fetchUrlTool.preview?.({ url: 'https://example.com' } as never, context(false)),
    ).toEqual({
      kind: 'url',
      url: 'https://example.com',
      method: 'GET',
    });
  });

  it.each([
    [`http://127.0.0.1:PORT/page`, /127\.0\.0\.1 is a loopback address/],
    [`http://[::1]:PORT/page`, /::1 is a loopback address/],
    [`http://[::ffff:127.0.0.1]:PORT/page`, /loopback \(IPv4-mapped 127\.0\.0\.1\)/],
    [`http://2130706433:PORT/page`, /127\.0\.0\.1 is a loopback address/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
    ['http://10.0.0.1/', /10\.0\.0\.1 is a private address/],
    ['http://0.0.0.0/', /unspecified/],
  ])('refuses %s without opening a socket', async (url, reason) => {
    expect(await refusal(url.replace('PORT', String(port)))).toMatch(reason);
    expect(sockets).toBe(0);
    expect(requests).toEqual([]);
  });

  it('refuses a host name that resolves to loopback unless allowed', async () => {
    expect(await refusal(`http://localhost:${port}/page`)).toMatch(
      /localhost \((127\.0\.0\.1|::1)\) is a loopback address/,
    );
    expect(requests).toEqual([]);
  });

  it('refuses schemes other than http and https', async () => {
    expect(await refusal('file:///etc/passwd')).toMatch(/Only http and https/);
    expect(await refusal('ftp://example.com/')).toMatch(/Only http and https/);
  });

  it('returns readable text from HTML when loopback is allowed', async () => {
    expect(sockets).toBe(0);
    const result = await fetchText(`http://localhost:${port}/page`, true);
    expect(sockets).toBeGreaterThan(0); // The socket counter does see real connections.
    expect(result.isError).toBe(false);
    expect(result.output).toContain(`URL: http://localhost:${port}/page`);
    expect(result.output).toContain('Status: 200 OK');
    expect(result.output).toContain('TITLE');
    expect(result.output).toContain('Hello world.');
    expect(result.output).toContain('link [/x]');
    expect(result.output).not.toContain('evil()');
    expect(result.output).not.toContain('<p>');
  });

  it('follows an allowed redirect and flags HTTP errors', async () => {
    const ok = await fetchText(`http://127.0.0.1:${port}/to-page`, true);
    expect(ok.output).toContain(`Redirected from: http://127.0.0.1:${port}/to-page`);
    expect(ok.output).toContain('Hello world.');
    const missing = await fetchText(`http://127.0.0.1:${port}/missing`, true);
    expect(missing).toMatchObject({ isError: true });
    expect(missing.output).toContain('Status: 404');
  });

  it('decompresses and caps the size', async () => {
    const result = await fetchUrlTool.execute(
      { url: `http://127.0.0.1:${port}/gz`, max_bytes: 2048 } as never,
      context(true),
    );
    const output = typeof result === 'string' ? result : result.output;
    expect(output).toContain('x'.repeat(2048));
    expect(output).not.toContain('x'.repeat(2049));
    expect(output).toContain('(download stopped at 2048 bytes');
  });
});

describe('guardedGet redirects', () => {
  const options = () => ({
    policy: firstHopPolicy(),
    signal: new AbortController().signal,
    maxBytes: 100_000,
    maxRedirects: 3,
  });

  it('re-checks the address after a redirect to loopback', async () => {
    await expect(guardedGet(`http://127.0.0.1:${port}/to-loopback`, options())).rejects.toThrow(
      /127\.0\.0\.2 is a loopback address/,
    );
    expect(requests).toEqual(['/to-loopback']);
  });

  it('re-checks DNS after a redirect to a name that resolves to loopback', async () => {
    const error = await guardedGet(`http://127.0.0.1:${port}/to-localhost`, options()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FetchRefused);
    expect((error as Error).message).toMatch(/localhost \(.*\) is a loopback address/);
    expect(requests).toEqual(['/to-localhost']);
  });

  it('caps redirects', async () => {
    await expect(
      guardedGet(`http://127.0.0.1:${port}/loop`, { ...options(), policy: () => undefined }),
    ).rejects.toThrow(/Too many redirects/);
    expect(requests).toHaveLength(4);
  });
});
