// Autonomous mode and the network are turned on only after a yes in main's own dialog, however the
// window asks: these calls go through the same validation wrapper the window's calls pass.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/api';
import { GrantBook } from '../permissions/grant-book';
import { JsonFilePermissionsStore } from '../permissions/project-permissions-store';
import { JsonFileSettingsStore } from '../store/provider-settings';
import { MemorySecretStore } from '../store/secret-store';
import { createHandlers, type TandemBackend } from './create-handlers';
import { FOLDER_CHANGED_WHILE_ASKING } from './permission-handlers';
import { CONFIRMATION_OPEN_MESSAGE, type ConfirmRequest } from './setting-confirmation';
import { createValidatedDispatcher, type InvokeDispatcher } from './validated-handlers';

let root: string;
let project: string;
let chosen: string;
let permissions: JsonFilePermissionsStore;
let backend: TandemBackend;
let call: InvokeDispatcher;
let events: AppEvent[];
/** Questions main's dialog was asked; each waits for `answer`. */
let asked: { request: ConfirmRequest; answer: (yes: boolean) => void }[];
let waiters: (() => void)[];

async function nextQuestion(count = asked.length + 1): Promise<(typeof asked)[number]> {
  while (asked.length < count) await new Promise<void>((wake) => waiters.push(wake));
  return asked[count - 1] as (typeof asked)[number];
}

/** Starts `work`, answers the one question it raises, and returns its outcome. */
async function answering<T>(yes: boolean, work: Promise<T>): Promise<T> {
  (await nextQuestion()).answer(yes);
  return work;
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-confirm-')));
  project = join(root, 'shop');
  await mkdir(project);
  chosen = project;
  const dataDir = join(root, 'data');
  permissions = new JsonFilePermissionsStore(dataDir);
  asked = [];
  waiters = [];
  backend = createHandlers({
    appName: 'Tandem',
    appVersion: '0',
    dataDir,
    home: join(root, 'home'),
    chooseFolder: async () => chosen,
    confirm: (request) =>
      new Promise<boolean>((resolve) => {
        asked.push({ request, answer: resolve });
        for (const wake of waiters.splice(0)) wake();
      }),
    sandboxState: () => ({
      kind: 'bwrap',
      available: true,
      description: 'bubblewrap, network off',
    }),
    settings: new JsonFileSettingsStore(dataDir),
    secrets: new MemorySecretStore(),
    permissions,
    grants: new GrantBook(),
  });
  events = [];
  // MCP state pushes arrive on their own timer after a folder opens; they announce no setting.
  backend.onEvent((e) => {
    if (e.type !== 'mcp-changed') events.push(e);
  });
  call = createValidatedDispatcher(backend.handlers);
  await call('chooseFolder', []);
});

afterEach(async () => {
  await backend.dispose();
  await rm(root, { recursive: true, force: true });
});

describe("main's own question before Autonomous mode", () => {
  it('switches only after a yes, and the question names the folder and the sandbox', async () => {
    await expect(answering(true, call('setMode', ['autonomous']))).resolves.toMatchObject({
      folder: project,
      mode: 'autonomous',
    });
    expect(asked).toHaveLength(1);
    const { request } = asked[0]!;
    expect(request.title).toBe('Switch to Autonomous mode?');
    expect(request.message).toBe('Let the agent work in "shop" without asking you first?');
    expect(request.detail).toContain(project);
    expect(request.detail).toContain('bubblewrap, network off');
    expect(request.confirmLabel).toBe('Switch to Autonomous');
    expect((await permissions.load(project)).mode).toBe('autonomous');
    // Already on: nothing to confirm.
    await expect(call('setMode', ['autonomous'])).resolves.toMatchObject({ mode: 'autonomous' });
    expect(asked).toHaveLength(1);
  });

  it('a no leaves the mode as it was, tells the window why, and announces nothing', async () => {
    await call('setMode', ['auto-edit']);
    const before = events.length;
    await expect(answering(false, call('setMode', ['autonomous']))).rejects.toThrow(
      "Autonomous mode was not confirmed in Tandem's dialog; the mode stays Auto-accept edits.",
    );
    expect((await permissions.load(project)).mode).toBe('auto-edit');
    expect(events).toHaveLength(before);
  });

  it('other modes change without a question', async () => {
    for (const mode of ['read-only', 'auto-edit', 'ask'] as const) {
      await expect(call('setMode', [mode])).resolves.toMatchObject({ mode });
    }
    expect(asked).toEqual([]);
  });
});

describe("main's own question before the network is allowed", () => {
  it('allows it only after a yes; a no keeps the setting', async () => {
    await expect(answering(false, call('setNetwork', ['allow']))).rejects.toThrow(
      "Allowing the network was not confirmed in Tandem's dialog; the network setting stays Ask.",
    );
    expect((await permissions.load(project)).network).toBe('ask');
    expect(asked[0]?.request).toMatchObject({
      title: 'Allow the network?',
      message: 'Allow the network for "shop"?',
      confirmLabel: 'Allow the network',
    });
    expect(asked[0]?.request.detail).toContain(`Commands the agent runs in ${project}`);

    await expect(answering(true, call('setNetwork', ['allow']))).resolves.toMatchObject({
      network: 'allow',
    });
    expect((await permissions.load(project)).network).toBe('allow');
  });

  it('narrowing it needs no question', async () => {
    await expect(call('setNetwork', ['off'])).resolves.toMatchObject({ network: 'off' });
    await expect(call('setNetwork', ['ask'])).resolves.toMatchObject({ network: 'ask' });
    expect(asked).toEqual([]);
  });
});

describe('a compromised window', () => {
  it.each([
    ['setMode', ['autonomous', { confirmed: true }], /expects 1 argument, got 2/],
    ['setMode', [{ mode: 'autonomous', confirmed: true }], /invalid arguments/],
    ['setNetwork', ['allow', true], /expects 1 argument, got 2/],
    ['setNetwork', [{ setting: 'allow', skipDialog: true }], /invalid arguments/],
    ['setMode', ['AUTONOMOUS'], /invalid arguments/],
  ] as const)('cannot skip the question: %s %j', async (method, args, message) => {
    await expect(call(method, args)).rejects.toThrow(message);
    expect(asked).toEqual([]);
    expect(await permissions.load(project)).toMatchObject({ mode: 'ask', network: 'ask' });
  });

  it('cannot stack questions hoping for a hurried yes', async () => {
    const first = call('setMode', ['autonomous']);
    await nextQuestion(1);
    await expect(call('setNetwork', ['allow'])).rejects.toThrow(CONFIRMATION_OPEN_MESSAGE);
    await expect(call('setMode', ['autonomous'])).rejects.toThrow(CONFIRMATION_OPEN_MESSAGE);
    asked[0]?.answer(false);
    await expect(first).rejects.toThrow(/not confirmed/);
    // Once answered, the next question may come.
    await expect(answering(true, call('setNetwork', ['allow']))).resolves.toMatchObject({
      network: 'allow',
    });
  });

  it('a yes given for one folder does not apply to another opened meanwhile', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    const pending = call('setMode', ['autonomous']);
    const question = await nextQuestion(1);
    chosen = other;
    await call('chooseFolder', []);
    question.answer(true);
    await expect(pending).rejects.toThrow(FOLDER_CHANGED_WHILE_ASKING);
    expect((await permissions.load(project)).mode).toBe('ask');
    expect((await permissions.load(other)).mode).toBe('ask');
  });
});
