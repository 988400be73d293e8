import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../shared/events';
import type { GateVerdict, PermissionGate } from '../main/permissions/gate';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { sessionsDir } from '../main/store/transcript';
import { createShellTool } from '../main/tools/shell-tool';
import { createRunPermissionGate } from './run-permission-gate';

const shell = createShellTool({
  probe: async () => ({ kind: 'bwrap', available: true, description: 'bwrap' }),
});

let root: string;
let folder: string;
let dataDir: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-run-gate-')));
  folder = join(root, 'proj');
  dataDir = join(root, 'data');
  await mkdir(folder);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function call(gate: PermissionGate, command: string, events: RunEvent[]): Promise<GateVerdict> {
  const signal = new AbortController().signal;
  return gate(
    {
      runId: 'r',
      callId: command,
      tool: shell,
      args: { command },
      ctx: { folder, sessionId: 's', callId: command, signal, onOutput: () => {}, services: {} },
    },
    (e) => events.push(e),
    signal,
  );
}

describe('createRunPermissionGate', () => {
  it('previews "always" over earlier transcripts, stores the rule, and a later run uses it', async () => {
    const earlier: RunEvent = {
      type: 'approval-requested',
      runId: 'old',
      requestId: 'q',
      callId: 'c',
      name: 'shell',
      args: { command: 'npm test -- --ci' },
      argsHash: 'h',
      effect: 'exec',
      preview: {
        kind: 'command',
        command: 'npm test -- --ci',
        cwd: folder,
        parts: [],
        sandbox: { kind: 'none', available: false, description: '' },
      },
      reasons: [],
      at: 1,
    };
    await mkdir(sessionsDir(dataDir, folder), { recursive: true });
    await writeFile(
      join(sessionsDir(dataDir, folder), 'old.jsonl'),
      JSON.stringify({ kind: 'event', at: 1, event: earlier }) + '\n',
    );

    const stdin = new PassThrough();
    let written = '';
    const first = createRunPermissionGate({
      folder,
      dataDir,
      stdin,
      stdinIsTTY: true,
      write: (t) => (written += t),
    });
    const events: RunEvent[] = [];
    const verdict = call(first.gate, 'npm test', events);
    // "a", then "1" keeps the exact rule (the card previews the widened one over earlier calls).
    stdin.write('a\n1\n');
    expect((await verdict).kind).toBe('run');
    expect(written).toContain(
      '"a" would store: `npm test` exactly would not have run any earlier call of this project without asking',
    );
    expect(written).toContain(
      '        `npm test *` (`npm test` with any further words for the script; options before `--` still ask) would have run 1 earlier call without asking, e.g. `npm test -- --ci`',
    );
    expect(
      (await new JsonFilePermissionsStore(dataDir).load(folder)).rules.map((r) => r.rule),
    ).toEqual([{ kind: 'command', argv: ['npm', 'test'], match: 'exact' }]);

    const second = createRunPermissionGate({
      folder,
      dataDir,
      stdin: new PassThrough(),
      stdinIsTTY: false,
      write: () => {},
    });
    expect(await call(second.gate, 'npm test', [])).toMatchObject({
      kind: 'run',
      provenance: "this project's rule for `npm test` exactly",
      permit: { basis: 'rule' },
    });
    expect((await call(second.gate, 'make', [])).kind).toBe('refuse');
  });

  it('a --mode override wins over the stored mode', async () => {
    const gate = createRunPermissionGate({
      folder,
      dataDir,
      mode: 'read-only',
      stdin: new PassThrough(),
      stdinIsTTY: true,
      write: () => {},
    });
    const verdict = await call(gate.gate, 'npm test', []);
    expect(verdict.kind === 'refuse' && verdict.message).toMatch(/read-only mode/);
  });
});
