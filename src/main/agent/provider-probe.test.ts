import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../../test-support/scripted-openai-server';
import { listModels, ProbeError, testConnection, type ProbeFailureKind } from './provider-probe';

let scripted: ScriptedServer;
/** Answers like the faulty endpoints a person meets: a bad key, a web page, a hang. */
let faulty: Server;
let faultyUrl: string;
let closedUrl: string;
const hanging = new Set<import('node:http').ServerResponse>();

beforeAll(async () => {
  scripted = await startScriptedOpenAIServer({ turns: [], model: 'scripted-model' });
  faulty = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/bad-key/')) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'auth' } }));
    } else if (path.startsWith('/forbidden/')) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'no access' } }));
    } else if (path.startsWith('/html/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Router login</title>');
    } else if (path.startsWith('/wrong-json/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ hello: 'world' }));
    } else if (path.startsWith('/broken/')) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'upstream down' } }));
    } else if (path.startsWith('/hang/')) {
      hanging.add(res); // never answers: the probe's timeout must end it
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    }
  });
  await new Promise<void>((resolve) => faulty.listen(0, '127.0.0.1', resolve));
  faultyUrl = `http://127.0.0.1:${(faulty.address() as AddressInfo).port}`;
  // A port that was just free: nothing listens there now.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await scripted?.close();
  for (const res of hanging) res.destroy();
  faulty?.closeAllConnections();
  await new Promise<void>((resolve) => faulty?.close(() => resolve()));
});

describe('listModels', () => {
  it('lists the models of an OpenAI-compatible server, sending the key as a bearer token', async () => {
    await expect(listModels(scripted.baseUrl, 'sk-test-123')).resolves.toEqual(['scripted-model']);
    const request = scripted.requests.at(-1);
    expect(request?.path).toBe('/v1/models');
    expect(request?.headers.authorization).toBe('Bearer sk-test-123');
  });

  it.each<[string, () => string, ProbeFailureKind, RegExp]>([
    ['a bad key', () => `${faultyUrl}/bad-key/v1`, 'unauthorized', /refused the API key \(401\)/],
    ['no permission', () => `${faultyUrl}/forbidden/v1`, 'forbidden', /refused access \(403\)/],
    [
      'a URL without /models',
      () => `${faultyUrl}/nothing-here`,
      'not-found',
      /\(404\): this base URL is not an OpenAI-compatible endpoint/,
    ],
    ['a web page', () => `${faultyUrl}/html/v1`, 'not-openai', /not like an OpenAI-compatible API/],
    [
      'JSON without a model list',
      () => `${faultyUrl}/wrong-json/v1`,
      'not-openai',
      /no model list at \/models/,
    ],
    ['a server error', () => `${faultyUrl}/broken/v1`, 'http', /answered with an error \(502\)/],
    [
      'nothing listening',
      () => closedUrl,
      'unreachable',
      /Cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    ],
    [
      'a server that never answers',
      () => `${faultyUrl}/hang/v1`,
      'timeout',
      /did not answer in time/,
    ],
  ])('explains %s', async (_name, url, kind, message) => {
    const failure = listModels(url(), 'sk-test', { timeoutMs: 500 });
    await expect(failure).rejects.toBeInstanceOf(ProbeError);
    await expect(failure).rejects.toMatchObject({ kind });
    await expect(failure).rejects.toThrow(message);
  });
});

describe('testConnection', () => {
  const base = { apiKey: 'sk-test', needsApiKey: true, providerLabel: 'OpenAI' };

  it('reports OK with the models when the chosen model is served', async () => {
    const result = await testConnection({
      ...base,
      baseUrl: scripted.baseUrl,
      model: 'scripted-model',
    });
    expect(result).toEqual({
      ok: true,
      message: expect.stringMatching(
        /^Connected to 127\.0\.0\.1:\d+: "scripted-model" is available\.$/,
      ),
      models: ['scripted-model'],
    });
  });

  it('is not OK when the server does not list the model, though it answered', async () => {
    const result = await testConnection({ ...base, baseUrl: scripted.baseUrl, model: 'gpt-9' });
    expect(result.ok).toBe(false);
    expect(result.modelMissing).toBe(true);
    expect(result.models).toEqual(['scripted-model']);
    expect(result.message).toMatch(/"gpt-9" is not among them: choose one from the list/);
  });

  it('asks for a key before calling a provider that needs one', async () => {
    const before = scripted.requests.length;
    const result = await testConnection({
      ...base,
      apiKey: undefined,
      baseUrl: scripted.baseUrl,
      model: 'scripted-model',
    });
    expect(result).toEqual({
      ok: false,
      message: 'OpenAI needs an API key: add one under API key, then test again.',
    });
    expect(scripted.requests.length).toBe(before);
  });

  it('tries a keyless local server without a key', async () => {
    const result = await testConnection({
      apiKey: undefined,
      needsApiKey: false,
      providerLabel: 'Ollama',
      baseUrl: scripted.baseUrl,
      model: '',
    });
    expect(result).toMatchObject({
      ok: true,
      message: expect.stringMatching(/1 model available\. Choose a model\./),
    });
  });

  it('turns failures into a message, not an exception', async () => {
    const result = await testConnection(
      { ...base, baseUrl: `${faultyUrl}/bad-key/v1`, model: 'm' },
      { timeoutMs: 2000 },
    );
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(/refused the API key \(401\)/),
    });
  });
});
