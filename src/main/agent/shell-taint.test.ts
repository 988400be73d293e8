// A command that ran with the network on may have printed anything from outside (a page, a
// package's install script): like a fetch, it taints the session, so grants for commands pause.
// The real shell tool, gate, broker and grant book, driven by the scripted model.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import { eventsOfType, startHarness, type Harness } from '../../test-support/agent-harness';
import { ApprovalBroker, type PendingApproval } from '../permissions/approval-broker';
import type { Asker } from '../permissions/asker';
import { createPermissionGate } from '../permissions/create-permission-gate';
import type { GateRequest, PermissionGate } from '../permissions/gate';
import { GrantBook } from '../permissions/grant-book';
import {
  DEFAULT_PERMISSIONS,
  JsonFilePermissionsStore,
} from '../permissions/project-permissions-store';
import { probeSandbox } from '../shell/sandbox-probe';
import { ShellSessions } from '../shell/shell-sessions';
import { createShellTool } from '../tools/shell-tool';
import { createToolRegistry } from '../tools/registry';
import { createAgent } from './agent';
import { createOpenAIProvider } from './provider';

const sandbox = await probeSandbox();
const COMMAND = 'touch a.txt';
const TAINT = 'after running `touch a.txt` with network on';

let harness: Harness | undefined;
let storeDir: string | undefined;
afterEach(async () => {
  await harness?.cleanup();
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
  harness = undefined;
  storeDir = undefined;
});

interface Scenario {
  readonly harness: Harness;
  /** Cards the person saw: the first is allowed for the session, later ones denied. */
  readonly asked: PendingApproval[];
  readonly gate: PermissionGate;
}

/** Two runs of the same command: the first is allowed "for this session", the second may use it. */
async function twoCommands(network: 'allow' | 'ask'): Promise<Scenario> {
  storeDir = await mkdtemp(join(tmpdir(), 'tandem-taint-store-'));
  const store = new JsonFilePermissionsStore(storeDir);
  const asked: PendingApproval[] = [];
  const asker: Asker = {
    ask(request, respond) {
      asked.push(request);
      respond(asked.length === 1 ? { kind: 'allow-session' } : { kind: 'deny' });
    },
  };
  const gate = createPermissionGate({
    store,
    grants: new GrantBook(),
    broker: new ApprovalBroker(),
    asker,
    sandbox,
  });
  harness = await startHarness({
    turns: [
      { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
      { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
      { text: 'done' },
      // A later run in the reopened session.
      { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
      { text: 'done again' },
    ],
    tools: [createShellTool({ probe: async () => sandbox, sessions: new ShellSessions() })],
    gate,
    // As the window sets it from the stored setting before each run.
    agent: { services: { allowShellNetwork: network === 'allow' } },
  });
  await store.save(harness.folder, { ...DEFAULT_PERMISSIONS, network });
  return { harness, asked, gate };
}

describe('shell output taints the session when commands have the network', () => {
  it('pauses the session grant for the next command, and the card says why', async () => {
    const { harness: h, asked } = await twoCommands('allow');
    expect(await h.agent.startRun('touch it twice').done).toBe('done');

    expect(h.gateRequests.map((r) => r.taintedBy)).toEqual([undefined, TAINT]);
    expect(asked).toHaveLength(2);
    const reasons = asked[1]?.reasons.join('\n') ?? '';
    expect(reasons).toContain('is paused for the rest of this session');
    expect(reasons).toContain(`the conversation took in outside content ${TAINT}`);
    // The first result recorded the taint; the denied second call did not run.
    const results = eventsOfType(h.events, 'tool-result');
    expect(results.map((r) => [r.ok, r.taintedBy])).toEqual([
      [true, TAINT],
      [false, undefined],
    ]);
  });

  it('with the network off the grant goes on applying', async () => {
    const { harness: h, asked } = await twoCommands('ask');
    expect(await h.agent.startRun('touch it twice').done).toBe('done');
    expect(h.gateRequests.map((r) => r.taintedBy)).toEqual([undefined, undefined]);
    expect(asked).toHaveLength(1);
    expect(eventsOfType(h.events, 'tool-result').map((r) => r.ok)).toEqual([true, true]);
  });

  it('stays tainted when the session is reopened from its transcript', async () => {
    const { harness: h, gate } = await twoCommands('allow');
    expect(await h.agent.startRun('touch it twice').done).toBe('done');
    await h.agent.close();
    const lines = (await readFile(h.agent.transcriptFile, 'utf8')).trim().split('\n');
    const recorded = lines
      .map((line) => JSON.parse(line) as { event?: RunEvent })
      .flatMap((line) => (line.event?.type === 'tool-result' ? [line.event] : []));
    expect(recorded[0]?.taintedBy).toBe(TAINT);

    const requests: GateRequest[] = [];
    const reopened = createAgent({
      provider: createOpenAIProvider({
        baseUrl: h.server.baseUrl,
        model: 'scripted-model',
        apiKey: 'k',
      }),
      registry: createToolRegistry([
        createShellTool({ probe: async () => sandbox, sessions: new ShellSessions() }),
      ]),
      gate: (request, emit, signal) => {
        requests.push(request);
        return gate(request, emit, signal);
      },
      folder: h.folder,
      dataDir: h.dataDir,
      sessionId: h.agent.sessionId,
      systemPrompt: 'test',
    });
    try {
      expect(await reopened.startRun('after restart').done).toBe('done');
      expect(requests.map((r) => r.taintedBy)).toEqual([TAINT]);
    } finally {
      await reopened.close();
    }
  });
});
