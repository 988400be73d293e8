// Shared wiring for agent tests: a real temp project folder, a real data dir, the scripted
// server, the real provider and registry, and a gate that records what it was asked.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { RunEvent } from '../shared/events';
import { createAgent, type Agent, type AgentOptions } from '../main/agent/agent';
import { createOpenAIProvider } from '../main/agent/provider';
import type { ProviderTimeouts } from '../main/agent/request-watchdog';
import type { GateRequest, GateVerdict, PermissionGate } from '../main/permissions/gate';
import { createToolRegistry } from '../main/tools/registry';
import { defineTool, type AnyTool } from '../main/tools/tool';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedServerOptions,
} from './scripted-openai-server';

export interface Harness {
  readonly server: ScriptedServer;
  readonly agent: Agent;
  readonly events: RunEvent[];
  readonly gateRequests: GateRequest[];
  readonly folder: string;
  readonly dataDir: string;
  cleanup(): Promise<void>;
}

export interface HarnessOptions extends ScriptedServerOptions {
  readonly tools?: readonly AnyTool[];
  readonly gate?: PermissionGate;
  readonly agent?: Partial<AgentOptions>;
  readonly maxAttempts?: number;
  /** Replaces the provider's wait between attempts (to record the waits it was asked for). */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Short limits for a provider that goes quiet (the real defaults are minutes). */
  readonly timeouts?: Partial<ProviderTimeouts>;
}

/** Runs everything, as a person answering yes to every card would. */
export const allowAll: PermissionGate = async () => ({
  kind: 'run',
  provenance: 'test gate',
  permit: { basis: 'person' },
});

export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `tandem-${prefix}-`));
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const server = await startScriptedOpenAIServer(options);
  const folder = await makeTempDir('proj');
  const dataDir = await makeTempDir('data');
  const gateRequests: GateRequest[] = [];
  const gate = options.gate ?? allowAll;
  const recordingGate: PermissionGate = (request, emit, signal): Promise<GateVerdict> => {
    // A snapshot: the request's taint is read live, and the test wants what it was at the call.
    gateRequests.push({ ...request });
    return gate(request, emit, signal);
  };
  const provider = createOpenAIProvider({
    baseUrl: server.baseUrl,
    model: 'scripted-model',
    apiKey: 'test-key',
    retry: { baseDelayMs: 1, maxDelayMs: 20, maxAttempts: options.maxAttempts ?? 3 },
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  });
  const agent = createAgent({
    provider,
    registry: createToolRegistry(options.tools ?? testTools()),
    gate: recordingGate,
    folder,
    dataDir,
    systemPrompt: 'test system prompt',
    ...options.agent,
  });
  const events: RunEvent[] = [];
  agent.onEvent((event) => events.push(event));
  return {
    server,
    agent,
    events,
    gateRequests,
    folder,
    dataDir,
    async cleanup() {
      await agent.close();
      await server.close();
      await rm(folder, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Tools with real behaviour the tests can observe. */
export function testTools(log: string[] = []): AnyTool[] {
  return [
    defineTool({
      name: 'echo',
      description: 'Returns its text.',
      parameters: Type.Object({
        text: Type.String(),
        times: Type.Optional(Type.Integer({ minimum: 1 })),
      }),
      effect: 'read',
      async execute(args) {
        log.push(`echo:${args.text}`);
        return args.text.repeat(args.times ?? 1);
      },
    }),
    defineTool({
      name: 'wait',
      description: 'Waits until stopped or for ms milliseconds.',
      parameters: Type.Object({ ms: Type.Integer() }),
      effect: 'read',
      execute: (args, ctx) =>
        new Promise((resolve, reject) => {
          log.push('wait:start');
          const timer = setTimeout(() => resolve(`waited ${args.ms}`), args.ms);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            log.push('wait:aborted');
            reject(new Error('aborted'));
          });
          ctx.onOutput('waiting\n');
        }),
    }),
    defineTool({
      name: 'note',
      description: 'Appends to the log (a write).',
      parameters: Type.Object({ text: Type.String() }),
      effect: 'write',
      async execute(args) {
        log.push(`note:${args.text}`);
        return `noted ${args.text}`;
      },
    }),
    defineTool({
      name: 'fetch_page',
      description: 'Pretends to fetch a URL (network).',
      parameters: Type.Object({ url: Type.String() }),
      effect: 'network',
      target: (args) => ({ kind: 'url', url: args.url }),
      async execute(args) {
        return `contents of ${args.url}`;
      },
    }),
  ];
}

export function eventsOfType<T extends RunEvent['type']>(
  events: readonly RunEvent[],
  type: T,
): Extract<RunEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
}
