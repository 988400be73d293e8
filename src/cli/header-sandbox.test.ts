// When `tandem run` probes the sandbox its header names: once the first model request is out
// (real HTTP to the scripted server, through the openai SDK), while the model is still silent;
// at once when the run ended first; after a bounded wait when no request goes out. Once only.
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxState } from '../shared/tool-types';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server';
import { createOpenAIProvider } from '../main/agent/provider';
import { sandboxAfterFirstRequest } from './header-sandbox';

const SANDBOX: SandboxState = { kind: 'bwrap', available: true, description: 'bubblewrap: …' };
/** Longer than any test here runs: only the request or probeNow may start the probe. */
const NEVER_MS = 600_000;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

function countingProbe(): { probe: () => Promise<SandboxState>; readonly count: () => number } {
  let count = 0;
  return {
    probe: async () => {
      count++;
      return SANDBOX;
    },
    count: () => count,
  };
}

describe('sandboxAfterFirstRequest', () => {
  it('probes once the first request has gone out, not before, and once', async () => {
    const server = await startScriptedOpenAIServer({ turns: [{ quiet: 'silent' }] });
    cleanups.push(() => server.close());
    const { probe, count } = countingProbe();
    const header = sandboxAfterFirstRequest(probe, NEVER_MS);
    await tick();
    expect(count()).toBe(0);
    const stop = new AbortController();
    const turn = createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' })
      .streamTurn({ messages: [], tools: [], signal: stop.signal })
      .catch(() => undefined);
    cleanups.push(() => {
      stop.abort();
      return turn;
    });
    // The model never answers: the probe did not wait for it.
    await expect(header.sandbox).resolves.toEqual(SANDBOX);
    expect(count()).toBe(1);
    header.probeNow();
    await tick();
    expect(count()).toBe(1);
  });

  it('probes at once when asked (the run ended before any request went out)', async () => {
    const { probe, count } = countingProbe();
    const header = sandboxAfterFirstRequest(probe, NEVER_MS);
    await tick();
    expect(count()).toBe(0);
    header.probeNow();
    header.probeNow();
    await expect(header.sandbox).resolves.toEqual(SANDBOX);
    expect(count()).toBe(1);
  });

  it('probes after the wait when no request goes out (a provider slow to accept it)', async () => {
    const { probe, count } = countingProbe();
    const header = sandboxAfterFirstRequest(probe, 1);
    await expect(header.sandbox).resolves.toEqual(SANDBOX);
    expect(count()).toBe(1);
  });
});
