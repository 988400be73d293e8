// The warm-up of a session: started once, by the first turn, only after its request has gone out
// (real HTTP to the scripted server, through the openai SDK), never changing what the turn returns.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAll, makeTempDir } from '../../test-support/agent-harness';
import { startScriptedOpenAIServer } from '../../test-support/scripted-openai-server';
import { eventually } from '../../test-support/mcp-servers';
import { projectDataDir } from '../store/data-dir';
import { createOpenAIProvider, type AssistantTurn, type ChatProvider } from './provider';
import { MODEL_REQUEST_SENT_CHANNEL } from './request-sent';
import { warmingUpOnFirstTurn, warmUpForCommands, type WarmUpSteps } from './session-warm-up';
import { openWorkspaceAgent } from './workspace-agent';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const request = () => ({ messages: [], tools: [], signal: new AbortController().signal });

const DONE: AssistantTurn = { text: 'hi', toolCalls: [], finishReason: 'stop' };

/** A provider with no HTTP: each turn resolves or rejects when the test says so. */
function handProvider(): ChatProvider & { settle(turn: AssistantTurn | Error): void } {
  let settle: (turn: AssistantTurn | Error) => void = () => {};
  return {
    model: 'hand',
    baseUrl: 'in-process',
    streamTurn: () =>
      new Promise<AssistantTurn>((resolve, reject) => {
        settle = (turn) => (turn instanceof Error ? reject(turn) : resolve(turn));
      }),
    settle: (turn) => settle(turn),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('warmingUpOnFirstTurn', () => {
  it('starts the warm-up once the request has gone out, while the model is still silent', async () => {
    const server = await startScriptedOpenAIServer({
      turns: [{ quiet: 'silent' }, { text: 'two' }],
    });
    cleanups.push(() => server.close());
    const order: string[] = [];
    const onSent = (): void => void order.push('request sent');
    subscribe(MODEL_REQUEST_SENT_CHANNEL, onSent);
    cleanups.push(async () => unsubscribe(MODEL_REQUEST_SENT_CHANNEL, onSent));
    let warmed: () => void = () => {};
    const warmedUp = new Promise<void>((resolve) => (warmed = resolve));
    const provider = warmingUpOnFirstTurn(
      createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
      () => {
        order.push('warm-up');
        warmed();
      },
    );
    const stop = new AbortController();
    const turn = provider.streamTurn({ ...request(), signal: stop.signal });
    expect(order).toEqual([]); // nothing inside the call that starts the request
    await warmedUp; // the model has not answered, and never will: the warm-up did not wait for it
    expect(order).toEqual(['request sent', 'warm-up']);
    stop.abort();
    await expect(turn).rejects.toThrow();
    expect((await provider.streamTurn(request())).text).toBe('two');
    await tick();
    expect(order.filter((entry) => entry === 'warm-up')).toHaveLength(1); // once, not per turn
  });

  it('without HTTP, starts it when the first turn ends, and the turn is returned as it was', async () => {
    const inner = handProvider();
    let warmUps = 0;
    const provider = warmingUpOnFirstTurn(inner, () => warmUps++);
    expect(provider.model).toBe('hand');
    expect(provider.baseUrl).toBe('in-process');
    const turn = provider.streamTurn(request());
    await tick();
    expect(warmUps).toBe(0);
    inner.settle(DONE);
    expect(await turn).toBe(DONE);
    await tick();
    expect(warmUps).toBe(1);
  });

  it('a failed first turn still starts it, and the caller gets the failure', async () => {
    const inner = handProvider();
    let warmUps = 0;
    const provider = warmingUpOnFirstTurn(inner, () => warmUps++);
    const turn = provider.streamTurn(request());
    inner.settle(new Error('provider down'));
    await expect(turn).rejects.toThrow('provider down');
    await tick();
    expect(warmUps).toBe(1);
  });
});

describe('warmUpForCommands', () => {
  const steps = (log: string[], failing?: keyof WarmUpSteps): WarmUpSteps => {
    const step = (name: keyof WarmUpSteps) => async (folder?: string) => {
      log.push(folder ? `${name} ${folder}` : name);
      if (name === failing) throw new Error(`${name} failed`);
    };
    return {
      probe: step('probe'),
      parser: step('parser'),
      repository: step('repository'),
      modules: step('modules'),
    };
  };

  it('runs every step, the repository one for the folder', async () => {
    const log: string[] = [];
    await warmUpForCommands('/proj', steps(log));
    expect(log.sort()).toEqual(['modules', 'parser', 'probe', 'repository /proj']);
  });

  it.each(['probe', 'parser', 'repository', 'modules'] as const)(
    'never rejects, and runs the others, when the %s step fails',
    async (failing) => {
      const log: string[] = [];
      await expect(warmUpForCommands('/proj', steps(log, failing))).resolves.toBeUndefined();
      expect(log).toHaveLength(4);
    },
  );
});

describe('a workspace agent', () => {
  it('warms up for its own folder once its first turn is asked for', async () => {
    const folder = await realpath(await makeTempDir('warm-proj'));
    const dataDir = await makeTempDir('warm-data');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startScriptedOpenAIServer({ turns: [{ text: 'a' }, { text: 'b' }] });
    cleanups.push(() => server.close());
    const warmed: string[] = [];
    const workspace = await openWorkspaceAgent({
      folder,
      dataDir,
      gate: allowAll,
      provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
      warmUp: async (dir) => void warmed.push(dir),
    });
    cleanups.push(() => workspace.close());
    expect(warmed).toEqual([]);
    expect(await workspace.agent.startRun('one').done).toBe('done');
    expect(await workspace.agent.startRun('two').done).toBe('done');
    await tick();
    expect(warmed).toEqual([folder]);
  });
});

describe('change tracking of a workspace', () => {
  const open = async (prepareTracking?: 'open' | 'first-request') => {
    const folder = await realpath(await makeTempDir('track-proj'));
    const dataDir = await makeTempDir('track-data');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await writeFile(join(folder, 'a.txt'), 'a\n');
    // The model never answers: whatever happens next, happens while the request is out.
    const server = await startScriptedOpenAIServer({ turns: [{ quiet: 'silent' }] });
    cleanups.push(() => server.close());
    const workspace = await openWorkspaceAgent({
      folder,
      dataDir,
      gate: allowAll,
      provider: createOpenAIProvider({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' }),
      warmUp: async () => undefined,
      ...(prepareTracking ? { prepareTracking } : {}),
    });
    cleanups.push(() => workspace.close());
    // Written when the scan of the project is done.
    const indexFile = join(projectDataDir(dataDir, folder), 'track', 'index.json');
    return { workspace, scanned: () => existsSync(indexFile) };
  };

  it('is prepared at open by default (the window: its first request comes much later)', async () => {
    const { scanned } = await open();
    await eventually(scanned, 'the scan at open');
  });

  it('with prepareTracking first-request, a run that ended unsent and closed at once scans nothing after close', async () => {
    // `tandem run --json` against a provider that refuses the connection: the turn ends before a
    // request is sent, which starts the scan a moment later (setImmediate), by then after close
    // released the project's lock: a scan (and a watch) of a project this process no longer owns.
    const folder = await realpath(await makeTempDir('track-proj'));
    const dataDir = await makeTempDir('track-data');
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await writeFile(join(folder, 'a.txt'), 'a\n');
    const refused: ChatProvider = {
      model: 'refused',
      baseUrl: 'in-process',
      streamTurn: () => Promise.reject(new Error('connect ECONNREFUSED')),
    };
    const workspace = await openWorkspaceAgent({
      folder,
      dataDir,
      gate: allowAll,
      provider: refused,
      warmUp: async () => undefined,
      prepareTracking: 'first-request',
    });
    const run = workspace.agent.startRun('never sent');
    expect(await run.done).toBe('error');
    await workspace.close();
    for (let i = 0; i < 5; i++) await tick();
    // The watch's flush folder is made as a scan starts (tree-watch.ts).
    const track = join(projectDataDir(dataDir, folder), 'track');
    expect(existsSync(join(track, 'flush'))).toBe(false);
    expect(existsSync(join(track, 'index.json'))).toBe(false);
  });

  it('with prepareTracking first-request (the CLI), starts once the first request is out', async () => {
    const { workspace, scanned } = await open('first-request');
    let scannedAtSend: boolean | undefined;
    const onSent = (): void => void (scannedAtSend ??= scanned());
    subscribe(MODEL_REQUEST_SENT_CHANNEL, onSent);
    cleanups.push(async () => unsubscribe(MODEL_REQUEST_SENT_CHANNEL, onSent));
    const run = workspace.agent.startRun('wait');
    cleanups.push(async () => {
      workspace.agent.stop(run.runId);
      await run.done;
    });
    // Nothing but the request going out starts it (workspace.prepared would, so it is not asked).
    await eventually(scanned, 'the scan after the request');
    expect(scannedAtSend).toBe(false);
  });
});
