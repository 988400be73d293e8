// The unit tests run the openai SDK as the build composes it (vitest.config.mts applies the
// build's openaiFetchGlobals step): a request's headers are Tandem's FetchHeaders, not undici's.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { FetchHeaders } from './fetch-headers';

it("the SDK builds a request's headers with Tandem's Headers", async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"object":"list","data":[]}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const seen: unknown[] = [];
  try {
    const client = new OpenAI({
      apiKey: 'k',
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      fetch: (input, init) => {
        seen.push(init?.headers);
        return globalThis.fetch(input, init);
      },
    });
    await client.models.list();
  } finally {
    await new Promise((done) => server.close(done));
  }
  expect(seen).toHaveLength(1);
  expect(seen[0]).toBeInstanceOf(FetchHeaders);
});
