// Issue 11 item 9: a redirect to another origin carries none of the provider's headers (the key,
// OpenAI-Organization, OpenAI-Project, custom ones); a same-origin redirect keeps them. Real HTTP:
// a redirecting server on one origin, the scripted OpenAI-compatible server on another.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../../test-support/scripted-openai-server';
import { createOpenAIProvider } from './provider';
import { listModels } from './provider-probe';
import { createProviderFetch, MAX_PROVIDER_REDIRECTS } from './provider-fetch';

const KEY = 'sk-test-redirect-0123456789';
const PROVIDER_HEADERS = ['authorization', 'openai-organization', 'openai-project'];

interface Hop {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A server whose every answer is `route(path)`: a redirect (status, location) or a 200 text. */
async function redirector(
  route: (path: string) => { status: number; location?: string; body?: string },
): Promise<{ origin: string; hops: Hop[]; server: Server }> {
  const hops: Hop[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      hops.push({
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const answer = route(path);
      res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hops, server };
}

const servers: Server[] = [];
let scripted: ScriptedServer | undefined;
const savedEnv = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };

beforeEach(() => {
  // The SDK reads these itself and sends them as OpenAI-Organization / OpenAI-Project.
  process.env.OPENAI_ORG_ID = 'org-secret-tenant';
  process.env.OPENAI_PROJECT_ID = 'proj_secret';
});
afterEach(async () => {
  for (const [name, value] of [
    ['OPENAI_ORG_ID', savedEnv.org],
    ['OPENAI_PROJECT_ID', savedEnv.project],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await scripted?.close();
  scripted = undefined;
});

function turnRequest() {
  const signal = new AbortController().signal;
  return { messages: [{ role: 'user' as const, content: 'hi' }], tools: [], signal };
}

describe('the provider behind a redirect', () => {
  it('sends no provider header to another origin, and the turn still completes', async () => {
    scripted = await startScriptedOpenAIServer({ turns: [{ text: 'hello from B' }] });
    const target = scripted.baseUrl;
    const front = await redirector((path) => ({
      status: 307,
      location: `${target}${path.replace(/^\/v1/, '')}`,
    }));
    servers.push(front.server);
    const provider = createOpenAIProvider({
      baseUrl: `${front.origin}/v1`,
      model: 'm',
      apiKey: KEY,
      retry: { maxAttempts: 1 },
    });
    const turn = await provider.streamTurn(turnRequest());
    expect(turn.text).toBe('hello from B');

    // The first origin got what the person configured…
    const first = front.hops[0]!.headers;
    expect(first.authorization).toBe(`Bearer ${KEY}`);
    expect(first['openai-organization']).toBe('org-secret-tenant');
    expect(first['openai-project']).toBe('proj_secret');
    // …the redirect target none of it, though it got the (307-preserved) body.
    const second = scripted.requests[0]!;
    for (const name of PROVIDER_HEADERS) expect(second.headers[name]).toBeUndefined();
    expect(Object.keys(second.headers).filter((name) => name.startsWith('x-stainless'))).toEqual(
      [],
    );
    expect(JSON.stringify(second.headers)).not.toContain(KEY);
    expect((second.body as { model?: string }).model).toBe('m');
  });

  it('keeps every header on a redirect within the same origin', async () => {
    const front = await redirector((path) =>
      path.startsWith('/old/')
        ? { status: 308, location: path.replace('/old/', '/new/') }
        : { status: 200, body: 'never' },
    );
    servers.push(front.server);
    const fetchThrough = createProviderFetch();
    const response = await fetchThrough(`${front.origin}/old/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'openai-organization': 'org-x', 'x-custom': 'c' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(200);
    const second = front.hops[1]!;
    expect(second.path).toBe('/new/chat');
    expect(second.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(second.headers['openai-organization']).toBe('org-x');
    expect(second.headers['x-custom']).toBe('c');
    expect(second.body).toBe('{"a":1}');
  });

  it('lists models through a cross-origin redirect without sending the key there', async () => {
    scripted = await startScriptedOpenAIServer({ turns: [], model: 'model-b' });
    const target = scripted.baseUrl;
    const front = await redirector((path) => ({
      status: 302,
      location: `${target}${path.replace(/^\/v1/, '')}`,
    }));
    servers.push(front.server);
    expect(await listModels(`${front.origin}/v1`, KEY)).toEqual(['model-b']);
    expect(front.hops[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(scripted.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe('createProviderFetch', () => {
  it('drops custom headers too, and a 302 after a POST becomes a GET without the body', async () => {
    const back = await redirector(() => ({ status: 200, body: 'ok' }));
    const front = await redirector(() => ({ status: 302, location: `${back.origin}/landing` }));
    servers.push(front.server, back.server);
    const response = await createProviderFetch()(`${front.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'api-key': KEY,
        'x-tenant-secret': 'shh',
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: '{"messages":[]}',
    });
    expect(await response.text()).toBe('ok');
    const hop = back.hops[0]!;
    expect(hop.method).toBe('GET');
    expect(hop.body).toBe('');
    expect(hop.headers.accept).toBe('application/json');
    for (const name of ['authorization', 'api-key', 'x-tenant-secret', 'content-type']) {
      expect(hop.headers[name]).toBeUndefined();
    }
  });

  it('stays stripped after a hop back to the first origin', async () => {
    let backOrigin = '';
    const front = await redirector((path) =>
      path === '/start' ? { status: 307, location: `${backOrigin}/bounce` } : { status: 200 },
    );
    const back = await redirector(() => ({ status: 307, location: `${front.origin}/end` }));
    backOrigin = back.origin;
    servers.push(front.server, back.server);
    await createProviderFetch()(`${front.origin}/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: 'x',
    });
    expect(front.hops.map((h) => [h.path, h.headers.authorization])).toEqual([
      ['/start', `Bearer ${KEY}`],
      ['/end', undefined],
    ]);
  });

  it('gives up after a bounded number of redirects, and refuses non-http targets', async () => {
    const loop = await redirector((path) => ({ status: 307, location: `${path}x` }));
    const odd = await redirector(() => ({ status: 302, location: 'file:///etc/passwd' }));
    servers.push(loop.server, odd.server);
    await expect(createProviderFetch()(`${loop.origin}/a`)).rejects.toThrow(
      `more than ${MAX_PROVIDER_REDIRECTS} times`,
    );
    expect(loop.hops).toHaveLength(MAX_PROVIDER_REDIRECTS + 1);
    await expect(createProviderFetch()(`${odd.origin}/a`)).rejects.toThrow('file: address');
  });
});
