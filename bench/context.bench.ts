// What each request carries over a scripted session: bytes of the first request and the mean
// over the 30-step scenario; bytes per request at steps 100, 300 and 500 of the long one.
// Run: npx tsx bench/context.bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '../src/main/agent/agent';
import type { PermissionGate } from '../src/main/permissions/gate';
import { createToolRegistry } from '../src/main/tools/registry';
import {
  longScenario,
  scenarioModel,
  scenarioTools,
  sourceCorpus,
  thirtyStepScenario,
  type RecordedRequest,
  type ScenarioStep,
} from './context-scenarios';

const allow: PermissionGate = async () => ({
  kind: 'run',
  provenance: 'bench',
  permit: { basis: 'person' },
});

async function play(model: string, steps: readonly ScenarioStep[]): Promise<RecordedRequest[]> {
  const folder = await mkdtemp(join(tmpdir(), 'tandem-bench-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'tandem-bench-data-'));
  let current: ScenarioStep | undefined;
  const requests: RecordedRequest[] = [];
  const agent = createAgent({
    provider: scenarioModel(model, steps, requests, (step) => (current = step)),
    registry: createToolRegistry(scenarioTools(() => current)),
    gate: allow,
    folder,
    dataDir,
    maxSteps: steps.length + 1,
  });
  const reason = await agent.startRun('Add real token counts to the context and test them.').done;
  await agent.close();
  await rm(folder, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
  if (reason !== 'done') throw new Error(`the scenario ended with ${reason}`);
  return requests;
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const corpus = sourceCorpus();
  const model = process.argv[2] ?? 'gpt-4o';
  const short = await play(model, thirtyStepScenario(corpus));
  const mean = short.reduce((sum, r) => sum + r.bytes, 0) / short.length;
  console.log(
    `${model}, 30-step scenario: ${short.length} requests; first ${kb(short[0]?.bytes ?? 0)}, ` +
      `mean ${kb(mean)}, last ${kb(short.at(-1)?.bytes ?? 0)}`,
  );
  const long = await play(model, longScenario(corpus, 500));
  const at = (step: number): string => kb(long[step - 1]?.bytes ?? 0);
  const largest = Math.max(...long.map((r) => r.bytes));
  console.log(
    `${model}, long scenario (500 steps, 100 writes of 8.8 KB): step 100 ${at(100)}, ` +
      `step 300 ${at(300)}, step 500 ${at(500)}; largest ${kb(largest)}`,
  );
}

void main();
