import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppEvent, WorkspaceInfo } from '../../shared/api';
import type { RunEvent } from '../../shared/events';
import { GrantBook } from '../permissions/grant-book';
import {
  DEFAULT_PERMISSIONS,
  JsonFilePermissionsStore,
} from '../permissions/project-permissions-store';
import { storeApiKey } from '../store/provider-config';
import { JsonFileSettingsStore } from '../store/provider-settings';
import { MemorySecretStore } from '../store/secret-store';
import { createHandlers, type HandlerDeps, type TandemBackend } from './create-handlers';
import { FOLDER_CHANGED_MESSAGE, NO_PROVIDER_MESSAGE, type RunController } from './run-controller';

let root: string;
let dataDir: string;
let project: string;
/** What the stand-in for the folder dialog answers. */
let chosen: string | null;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-ipc-')));
  dataDir = join(root, 'data');
  project = join(root, 'my-project');
  await mkdir(project);
  chosen = null;
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function deps(overrides: Partial<HandlerDeps> = {}): HandlerDeps {
  return {
    appName: 'Tandem',
    appVersion: '1.2.3',
    platform: 'linux',
    dataDir,
    chooseFolder: async () => chosen,
    confirm: async () => true,
    home: join(root, 'home'),
    sandboxState: () => ({ kind: 'bwrap', available: true, description: 'bubblewrap' }),
    settings: new JsonFileSettingsStore(dataDir),
    secrets: new MemorySecretStore(),
    permissions: new JsonFilePermissionsStore(dataDir),
    grants: new GrantBook(),
    ...overrides,
  };
}

/** The person picks `folder` in the folder dialog. */
async function choose(
  handlers: TandemBackend['handlers'],
  folder: string,
): Promise<WorkspaceInfo | null> {
  chosen = folder;
  try {
    return await handlers.chooseFolder();
  } finally {
    chosen = null;
  }
}

/** A factory that makes a RecordingController per folder and keeps them, oldest first. */
function recordingFactory(): {
  made: RecordingController[];
  runControllerFactory: (ws: WorkspaceInfo) => RecordingController;
} {
  const made: RecordingController[] = [];
  return {
    made,
    runControllerFactory: (ws) => {
      const c = new RecordingController(ws.folder);
      made.push(c);
      return c;
    },
  };
}

/** A controller that records calls and lets the test push events, standing in for the agent. */
class RecordingController implements RunController {
  readonly calls: string[] = [];
  disposed = false;
  private listeners = new Set<(sessionId: string, event: RunEvent) => void>();
  constructor(readonly folder: string) {}
  async startRun(task: string) {
    this.calls.push(`start:${task}`);
    return { runId: 'run-1', sessionId: 'session-1' };
  }
  async stopRun(runId: string) {
    this.calls.push(`stop:${runId}`);
  }
  async compactSession() {
    this.calls.push('compact');
    return { ok: true, message: 'compacted' };
  }
  async answerApproval(requestId: string, argsHash: string) {
    this.calls.push(`answer:${requestId}:${argsHash}`);
  }
  async answerEdited(requestId: string, argsHash: string) {
    this.calls.push(`edited:${requestId}:${argsHash}`);
  }
  async previewAlwaysRule(requestId: string) {
    this.calls.push(`preview:${requestId}`);
    return { rules: [], matched: 0, examples: [], summary: '', choices: [] };
  }
  async sendTerminalInput(callId: string, data: string) {
    this.calls.push(`input:${callId}:${data}`);
    return callId === 'running';
  }
  async revertCall(callId: string) {
    this.calls.push(`revert-call:${callId}`);
    return { ok: true, message: 'restored', files: [] };
  }
  async revertRun(runId: string) {
    this.calls.push(`revert-run:${runId}`);
    return { ok: true, message: 'restored', files: [] };
  }
  async previewRevertRun(runId: string) {
    this.calls.push(`preview-revert-run:${runId}`);
    return [];
  }
  async stopCall(callId: string) {
    this.calls.push(`stop-call:${callId}`);
    return false;
  }
  async sessionChanges() {
    this.calls.push('changes');
    return [];
  }
  async revertFiles(paths: readonly string[]) {
    this.calls.push(`revert-files:${paths.join(',')}`);
    return { ok: true, message: 'restored', files: [] };
  }
  session: string | null = null;
  currentSession() {
    return this.session ? { id: this.session, running: false } : null;
  }
  async openSession(sessionId: string) {
    this.calls.push(`open-session:${sessionId}`);
    this.session = sessionId;
  }
  async newSession() {
    this.calls.push('new-session');
    this.session = null;
  }
  onEvent(listener: (sessionId: string, event: RunEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  push(event: RunEvent) {
    for (const l of this.listeners) l('session-1', event);
  }
  /** What the run says as it is stopped by dispose (say, its `run-finished`). */
  lastWords: RunEvent[] = [];
  async dispose() {
    this.disposed = true;
    await Promise.resolve();
    for (const event of this.lastWords) this.push(event);
  }
}

describe('app handlers', () => {
  it('reports app info with the sandbox state, and ping round-trips', async () => {
    const { handlers } = createHandlers(deps());
    await expect(handlers.getAppInfo()).resolves.toEqual({
      name: 'Tandem',
      version: '1.2.3',
      platform: 'linux',
      sandbox: { kind: 'bwrap', available: true, description: 'bubblewrap' },
    });
    await expect(handlers.ping('x')).resolves.toBe('pong: x');
  });

  it('reports provider status from the settings store, never the key itself', async () => {
    const secrets = new MemorySecretStore();
    const settings = new JsonFileSettingsStore(dataDir);
    await settings.save({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', presetId: 'custom' });
    const { handlers } = createHandlers(deps({ settings, secrets }));
    await expect(handlers.getProviderStatus()).resolves.toEqual({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      hasApiKey: false,
      needsApiKey: false,
    });
    await storeApiKey(settings, secrets, 'sk-secret');
    const status = await handlers.getProviderStatus();
    expect(status.hasApiKey).toBe(true);
    expect(JSON.stringify(status)).not.toContain('sk-secret');
  });
});

describe('workspace handlers', () => {
  it('opens a folder by its real path, announces it and remembers it across restarts', async () => {
    const link = join(root, 'link-to-project');
    await symlink(project, link);
    const backend = createHandlers(deps());
    const events: AppEvent[] = [];
    backend.onEvent((e) => events.push(e));

    const workspace = await choose(backend.handlers, link);
    expect(workspace).toEqual({ folder: project, name: 'my-project', mode: 'ask' });
    expect(events).toEqual([{ type: 'workspace-changed', workspace }]);

    const restarted = createHandlers(deps());
    await expect(restarted.handlers.recentFolders()).resolves.toEqual([project]);
    await expect(restarted.handlers.openFolder(project)).resolves.toEqual(workspace);
  });

  it.each([
    ['a missing folder', (r: string) => join(r, 'nope'), /Cannot open ".*nope": no such folder\./],
    ['a file', (r: string) => join(r, 'file.txt'), /it is a file, not a folder/],
    ['a relative path', () => 'my-project', /must be absolute/],
    [
      'a path through a file',
      (r: string) => join(r, 'file.txt', 'x'),
      /a part of the path is a file/,
    ],
  ])('refuses %s with a clear message', async (_name, pathOf, message) => {
    await writeFile(join(root, 'file.txt'), 'x');
    const { handlers } = createHandlers(deps());
    await expect(choose(handlers, pathOf(root))).rejects.toThrow(message);
    await expect(handlers.openFolder(pathOf(root))).rejects.toThrow(message);
    await expect(handlers.recentFolders()).resolves.toEqual([]);
  });

  // The built CLI runs the compiled code it finds in its code cache: a project holding that
  // folder would let an approved command plant code the CLI runs outside the sandbox.
  it("refuses a folder holding the CLI's code cache", async () => {
    const folder = join(root, 'cached');
    await mkdir(folder);
    vi.stubEnv('XDG_CACHE_HOME', join(folder, '.cache'));
    try {
      const { handlers } = createHandlers(deps());
      await expect(choose(handlers, folder)).rejects.toThrow(/contains Tandem's own data folder/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('lists recent folders most recent first, without duplicates or vanished folders', async () => {
    const { handlers } = createHandlers(deps());
    const names = ['a', 'b', 'c'];
    for (const n of names) await mkdir(join(root, n));
    for (const n of names) await choose(handlers, join(root, n));
    // Reopening from the list moves the folder to the front.
    await handlers.openFolder(join(root, 'a'));
    await rm(join(root, 'b'), { recursive: true });
    await expect(handlers.recentFolders()).resolves.toEqual([join(root, 'a'), join(root, 'c')]);
  });

  it('chooseFolder opens what the chooser returns, and null when cancelled', async () => {
    const { handlers } = createHandlers(deps());
    await expect(choose(handlers, project)).resolves.toMatchObject({ folder: project });
    await expect(handlers.chooseFolder()).resolves.toBeNull();
  });

  it("opens a folder in the project's stored mode", async () => {
    const permissions = new JsonFilePermissionsStore(dataDir);
    await permissions.save(project, { ...DEFAULT_PERMISSIONS, mode: 'read-only' });
    const { handlers } = createHandlers(deps({ permissions }));
    await expect(choose(handlers, project)).resolves.toMatchObject({ mode: 'read-only' });
  });
});

describe('run handlers', () => {
  it('asks for a folder first, then for a provider', async () => {
    const { handlers } = createHandlers(deps());
    await expect(handlers.startRun('do it')).rejects.toThrow(
      'Open a folder before starting a run.',
    );
    await choose(handlers, project);
    await expect(handlers.startRun('do it')).rejects.toThrow(NO_PROVIDER_MESSAGE);
    await expect(handlers.stopRun('run-1')).rejects.toThrow(NO_PROVIDER_MESSAGE);
    await expect(handlers.answerApproval('r', 'h', { kind: 'deny' })).rejects.toThrow(
      NO_PROVIDER_MESSAGE,
    );
    // Keystrokes never create a controller: no command can be running without one.
    await expect(handlers.sendTerminalInput('call-1', 'y')).resolves.toBe(false);
  });

  it('forwards to the controller of the open folder and pushes its events', async () => {
    const { made, runControllerFactory } = recordingFactory();
    const backend = createHandlers(deps({ runControllerFactory }));
    const events: AppEvent[] = [];
    backend.onEvent((e) => events.push(e));
    await choose(backend.handlers, project);

    await expect(backend.handlers.startRun('fix the bug')).resolves.toEqual({
      runId: 'run-1',
      sessionId: 'session-1',
    });
    await backend.handlers.answerApproval('req-1', 'hash-1', { kind: 'allow-once' });
    await backend.handlers.previewAlwaysRule('req-2');
    await expect(backend.handlers.sendTerminalInput('running', 'y\r')).resolves.toBe(true);
    await expect(backend.handlers.sendTerminalInput('finished', 'y\r')).resolves.toBe(false);
    await backend.handlers.revertCall('call-1');
    await backend.handlers.revertRun('run-1');
    await backend.handlers.stopRun('run-1');
    expect(made).toHaveLength(1);
    expect(made[0]?.folder).toBe(project);
    expect(made[0]?.calls).toEqual([
      'start:fix the bug',
      'answer:req-1:hash-1',
      'preview:req-2',
      'input:running:y\r',
      'input:finished:y\r',
      'revert-call:call-1',
      'revert-run:run-1',
      'stop:run-1',
    ]);

    const event: RunEvent = { type: 'assistant-delta', runId: 'run-1', text: 'hi' };
    made[0]?.push(event);
    expect(events.at(-1)).toEqual({ type: 'run-event', sessionId: 'session-1', event });

    // Another folder: the old controller is released and stops reaching the window.
    const other = join(root, 'other');
    await mkdir(other);
    await choose(backend.handlers, other);
    expect(made[0]?.disposed).toBe(true);
    const before = events.length;
    made[0]?.push(event);
    expect(events).toHaveLength(before);
    await backend.handlers.startRun('next');
    expect(made[1]?.folder).toBe(other);
  });

  it('retries a factory that failed once', async () => {
    let attempts = 0;
    const { handlers } = createHandlers(
      deps({
        runControllerFactory: (ws) => {
          attempts += 1;
          if (attempts === 1) throw new Error('No API key stored for this provider.');
          return new RecordingController(ws.folder);
        },
      }),
    );
    await choose(handlers, project);
    await expect(handlers.startRun('a')).rejects.toThrow('No API key stored');
    await expect(handlers.startRun('a')).resolves.toMatchObject({ runId: 'run-1' });
  });

  it('keeps the run when the same folder is reopened, also after a mode change', async () => {
    const { made, runControllerFactory } = recordingFactory();
    const { handlers } = createHandlers(deps({ runControllerFactory }));
    await choose(handlers, project);
    await handlers.startRun('t');
    await handlers.openFolder(project);
    await handlers.setMode('auto-edit');
    await expect(handlers.openFolder(project)).resolves.toMatchObject({ mode: 'auto-edit' });
    expect(made).toHaveLength(1);
    expect(made[0]?.disposed).toBe(false);
    await handlers.stopRun('run-1');
    expect(made[0]?.calls).toEqual(['start:t', 'stop:run-1']);
  });

  it("delivers the stopped run's last events before the folder changes", async () => {
    const { made, runControllerFactory } = recordingFactory();
    const backend = createHandlers(deps({ runControllerFactory }));
    const events: AppEvent[] = [];
    backend.onEvent((e) => events.push(e));
    await choose(backend.handlers, project);
    await backend.handlers.startRun('t');
    const finished: RunEvent = { type: 'run-finished', runId: 'run-1', reason: 'stopped' };
    made[0]?.lastWords.push(finished);
    const other = join(root, 'other');
    await mkdir(other);
    await choose(backend.handlers, other);
    expect(events.slice(-2)).toEqual([
      { type: 'run-event', sessionId: 'session-1', event: finished },
      expect.objectContaining({ type: 'workspace-changed' }),
    ]);
  });

  it('disposes a controller made for a folder that was left before it was ready', async () => {
    const made: RecordingController[] = [];
    let release: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { handlers } = createHandlers(
      deps({
        runControllerFactory: async (ws) => {
          const c = new RecordingController(ws.folder);
          made.push(c);
          if (made.length === 1) await ready;
          return c;
        },
      }),
    );
    await choose(handlers, project);
    const started = handlers.startRun('in the old folder');
    const other = join(root, 'other');
    await mkdir(other);
    await choose(handlers, other);
    release();
    await expect(started).rejects.toThrow(FOLDER_CHANGED_MESSAGE);
    expect(made[0]?.disposed).toBe(true);
    expect(made[0]?.calls).toEqual([]);
    await expect(handlers.startRun('here')).resolves.toMatchObject({ runId: 'run-1' });
    expect(made[1]?.folder).toBe(other);
    expect(made[1]?.calls).toEqual(['start:here']);
  });
});
