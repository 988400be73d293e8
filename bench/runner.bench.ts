// Runner benchmark: how much the loop itself costs per step. A scripted model answers instantly
// with one tool call per turn and a trivial tool answers instantly, so what is left is the
// harness: validation, gate, events, transcript writes, history fitting.
// Run: npx tsx bench/runner.bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { createAgent } from '../src/main/agent/agent';
import {
  createOpenAIProvider,
  type AssistantTurn,
  type ChatProvider,
} from '../src/main/agent/provider';
import type { PermissionGate } from '../src/main/permissions/gate';
import { createToolRegistry } from '../src/main/tools/registry';
import { defineTool } from '../src/main/tools/tool';
import { startScriptedOpenAIServer } from '../src/test-support/scripted-openai-server';

const STEPS = 1_000;

const noop = defineTool({
  name: 'noop',
  description: 'Returns its text.',
  parameters: Type.Object({ text: Type.String(), n: Type.Integer() }),
  effect: 'read',
  execute: async (args) => args.text,
});

const allow: PermissionGate = async () => ({
  kind: 'run',
  provenance: 'bench',
  permit: { basis: 'person' },
});

/** An in-process model: answers at once, recording when each turn was asked for. */
function instantModel(askedAt: number[]): ChatProvider {
  let turn = 0;
  return {
    model: 'instant',
    baseUrl: 'in-process',
    async streamTurn(): Promise<AssistantTurn> {
      askedAt.push(performance.now());
      turn++;
      if (turn > STEPS) return { text: 'done', toolCalls: [], finishReason: 'stop' };
      return {
        text: '',
        toolCalls: [
          {
            id: `call_${turn}`,
            type: 'function',
            function: { name: 'noop', arguments: `{"text":"step ${turn}","n":"${turn}"}` },
          },
        ],
        finishReason: 'tool_calls',
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      };
    },
  };
}

async function run(provider: ChatProvider, label: string): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'tandem-bench-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'tandem-bench-data-'));
  const agent = createAgent({
    provider,
    registry: createToolRegistry([noop]),
    gate: allow,
    folder,
    dataDir,
    maxSteps: STEPS + 1,
    systemPrompt: 'bench',
  });
  let peakRss = process.memoryUsage.rss();
  let events = 0;
  agent.onEvent(() => {
    events++;
    if (events % 50 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
  });
  const started = performance.now();
  const reason = await agent.startRun('benchmark').done;
  const elapsed = performance.now() - started;
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  await agent.close();
  await rm(folder, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
  console.log(
    `${label}: ${reason}, ${STEPS} steps in ${elapsed.toFixed(0)} ms → ${((STEPS / elapsed) * 1000).toFixed(0)} steps/s; ${events} events; peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
  );
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;
}

async function main(): Promise<void> {
  console.log(
    `RSS before any run (node + tsx + modules): ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MiB`,
  );
  // Warm-up so JIT and module loading are not counted.
  await run(instantModel([]), 'warm-up (in-process model)');

  const askedAt: number[] = [];
  await run(instantModel(askedAt), 'in-process model');
  const perStep = askedAt
    .slice(1)
    .map((t, i) => t - (askedAt[i] as number))
    .sort((a, b) => a - b);
  console.log(
    `harness time per step (in-process model, instant tool): median ${percentile(perStep, 0.5).toFixed(3)} ms, p95 ${percentile(perStep, 0.95).toFixed(3)} ms, max ${percentile(perStep, 1).toFixed(3)} ms`,
  );

  const server = await startScriptedOpenAIServer({
    chunkBytes: 4096,
    recordRequests: false,
    deltaChars: 64,
    turns: (index) =>
      index < STEPS
        ? { toolCalls: [{ name: 'noop', arguments: { text: `step ${index}`, n: index } }] }
        : { text: 'done' },
  });
  try {
    await run(
      createOpenAIProvider({ baseUrl: server.baseUrl, model: 'scripted-model', apiKey: 'bench' }),
      'scripted HTTP server (openai SDK, SSE over loopback)',
    );
  } finally {
    await server.close();
  }
  console.log(
    `max RSS of the process (getrusage): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
  );
}

void main();
