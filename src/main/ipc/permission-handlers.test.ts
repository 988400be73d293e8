import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/api';
import type { SandboxState } from '../../shared/tool-types';
import { GrantBook } from '../permissions/grant-book';
import {
  DEFAULT_PERMISSIONS,
  JsonFilePermissionsStore,
} from '../permissions/project-permissions-store';
import { JsonFileSettingsStore } from '../store/provider-settings';
import { MemorySecretStore } from '../store/secret-store';
import { createHandlers, type TandemBackend } from './create-handlers';
import { NO_FOLDER_MESSAGE, ruleId } from './permission-handlers';
import type { ConfirmRequest } from './setting-confirmation';

let root: string;
let project: string;
let dataDir: string;
let now: number;
let grants: GrantBook;
let permissions: JsonFilePermissionsStore;
let sandbox: SandboxState;
let backend: TandemBackend;
let events: AppEvent[];
/** What main's dialog was asked, and how the person answers it. */
let asked: ConfirmRequest[];
let answerYes: boolean;

const NO_SANDBOX: SandboxState = {
  kind: 'none',
  available: false,
  description: 'Not sandboxed: bubblewrap (bwrap) is missing',
};

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-perm-ipc-')));
  project = join(root, 'project');
  dataDir = join(root, 'data');
  await mkdir(project);
  now = 1_000_000;
  grants = new GrantBook(() => now);
  permissions = new JsonFilePermissionsStore(dataDir);
  sandbox = { kind: 'bwrap', available: true, description: 'bubblewrap' };
  asked = [];
  answerYes = true;
  backend = createHandlers({
    appName: 'Tandem',
    appVersion: '0',
    dataDir,
    chooseFolder: async () => project,
    confirm: async (request) => {
      asked.push(request);
      return answerYes;
    },
    home: join(root, 'home'),
    sandboxState: () => sandbox,
    settings: new JsonFileSettingsStore(dataDir),
    secrets: new MemorySecretStore(),
    permissions,
    grants,
  });
  events = [];
  backend.onEvent((e) => events.push(e));
});

afterEach(async () => {
  await backend.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('permission handlers', () => {
  it('needs an open folder', async () => {
    const h = backend.handlers;
    await expect(h.getPermissions()).resolves.toBeNull();
    await expect(h.setMode('read-only')).rejects.toThrow(NO_FOLDER_MESSAGE);
    await expect(h.setNetwork('off')).rejects.toThrow(NO_FOLDER_MESSAGE);
  });

  it('sets the mode, persists it and tells the window', async () => {
    const h = backend.handlers;
    await h.chooseFolder();
    await expect(h.setMode('read-only')).resolves.toEqual({
      folder: project,
      name: 'project',
      mode: 'read-only',
    });
    expect(events.at(-1)).toEqual({
      type: 'workspace-changed',
      workspace: { folder: project, name: 'project', mode: 'read-only' },
    });
    expect((await permissions.load(project)).mode).toBe('read-only');
    // Reopening (or restarting) keeps it.
    await expect(h.openFolder(project)).resolves.toMatchObject({ mode: 'read-only' });
  });

  it('refuses autonomous mode without a sandbox, with the reason', async () => {
    sandbox = NO_SANDBOX;
    const h = backend.handlers;
    await h.chooseFolder();
    await expect(h.setMode('autonomous')).rejects.toThrow(
      /Autonomous mode needs a sandbox for commands, and this machine has none \(Not sandboxed: bubblewrap/,
    );
    expect((await permissions.load(project)).mode).toBe('ask');
    expect(asked).toEqual([]);
    sandbox = { kind: 'bwrap', available: true, description: 'bubblewrap' };
    await expect(h.setMode('autonomous')).resolves.toMatchObject({ mode: 'autonomous' });
    expect(asked.map((r) => r.title)).toEqual(['Switch to Autonomous mode?']);
  });

  it('lists rules with descriptions and last use, and deletes one by id', async () => {
    const npmTest = { kind: 'command' as const, argv: ['npm', 'test'], match: 'prefix' as const };
    const writeTool = { kind: 'tool' as const, tool: 'write_file' };
    await permissions.save(project, {
      ...DEFAULT_PERMISSIONS,
      rules: [
        { rule: npmTest, createdAt: 10 },
        { rule: writeTool, createdAt: 20 },
      ],
    });
    grants.markRuleUsed(project, npmTest);
    const h = backend.handlers;
    await h.chooseFolder();
    const info = await h.getPermissions();
    expect(info).toMatchObject({ folder: project, mode: 'ask', network: 'ask', sandbox });
    expect(info?.rules).toEqual([
      {
        id: ruleId(npmTest),
        kind: 'command',
        description:
          '`npm test *` (`npm test` with any further words for the script; options before `--` still ask)',
        note: null,
        createdAt: 10,
        lastUsedAt: now,
      },
      {
        id: ruleId(writeTool),
        kind: 'tool',
        description: 'tool `write_file`',
        note: null,
        createdAt: 20,
        lastUsedAt: null,
      },
    ]);

    const after = await h.deleteRule(ruleId(npmTest));
    expect(after.rules.map((r) => r.description)).toEqual(['tool `write_file`']);
    expect((await permissions.load(project)).rules).toEqual([{ rule: writeTool, createdAt: 20 }]);
    await expect(h.deleteRule(ruleId(npmTest))).rejects.toThrow(/no longer stored/);
  });

  it("lists this session's and timed grants with last use, and revokes them", async () => {
    const h = backend.handlers;
    await h.chooseFolder();
    // The latest run's session is the one whose grants are shown.
    backend.emit({
      type: 'run-event',
      sessionId: 'session-7',
      event: { type: 'run-started', runId: 'r', sessionId: 'session-7', task: 't', at: 0 },
    });
    const session = grants.add({
      folder: project,
      rule: { kind: 'command', argv: ['npm', 'run', 'build'], match: 'exact' },
      scope: { kind: 'session', sessionId: 'session-7' },
      effect: 'exec',
    });
    const timed = grants.add({
      folder: project,
      rule: { kind: 'tool', tool: 'fetch_url' },
      scope: { kind: 'until', expiresAt: now + 30 * 60_000 },
      effect: 'network',
    });
    grants.add({
      folder: project,
      rule: { kind: 'tool', tool: 'write_file' },
      scope: { kind: 'session', sessionId: 'older-session' },
      effect: 'write',
    });
    now += 5000;
    grants.markUsed(session.id);

    const info = await h.getPermissions();
    expect(info?.grants).toEqual([
      {
        id: session.id,
        kind: 'session',
        description: '`npm run build` exactly',
        grantedAt: 1_000_000,
        expiresAt: null,
        lastUsedAt: 1_005_000,
      },
      {
        id: timed.id,
        kind: 'until',
        description: 'tool `fetch_url`',
        grantedAt: 1_000_000,
        expiresAt: 1_000_000 + 30 * 60_000,
        lastUsedAt: null,
      },
    ]);
    const after = await h.revokeGrant(session.id);
    expect(after.grants.map((g) => g.id)).toEqual([timed.id]);
    expect(grants.active(project, 'session-7').map((g) => g.id)).toEqual([timed.id]);
    await expect(h.revokeGrant(session.id)).rejects.toThrow(/no longer active/);
  });

  it('sets the network setting', async () => {
    const h = backend.handlers;
    await h.chooseFolder();
    await expect(h.setNetwork('off')).resolves.toMatchObject({ network: 'off' });
    expect((await permissions.load(project)).network).toBe('off');
  });
});
