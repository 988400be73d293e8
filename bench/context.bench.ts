// What each request carries over a scripted session, in bytes and in tokens (gpt-4o's o200k):
// the 30-step scenario (first, mean, last), the long one (steps 100, 300 and 500, the largest),
// and one 600 KB (then 200 KB) write_file followed by 100 ordinary steps. Summary requests (compaction) are
// counted apart.
// Run: npx tsx bench/context.bench.ts [model]   (default gpt-4o: a 128,000-token window)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '../src/main/agent/agent';
import type { PermissionGate } from '../src/main/permissions/gate';
import { createToolRegistry } from '../src/main/tools/registry';
import {
  bigWriteScenario,
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

interface Played {
  /** The requests of the steps, in order (summary requests left out). */
  readonly steps: RecordedRequest[];
  readonly summaries: RecordedRequest[];
}

async function play(model: string, steps: readonly ScenarioStep[]): Promise<Played> {
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
  return {
    steps: requests.filter((r) => !r.summary),
    summaries: requests.filter((r) => r.summary),
  };
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const kt = (tokens: number): string => `${(tokens / 1000).toFixed(1)}k tok`;
const both = (r: RecordedRequest | undefined): string =>
  r ? `${kb(r.bytes)} / ${kt(r.tokens)}` : '-';
const mean = (rs: readonly RecordedRequest[]): RecordedRequest => ({
  bytes: rs.reduce((sum, r) => sum + r.bytes, 0) / rs.length,
  tokens: rs.reduce((sum, r) => sum + r.tokens, 0) / rs.length,
  messages: 0,
  summary: false,
});
const largest = (rs: readonly RecordedRequest[]): RecordedRequest =>
  rs.reduce((a, b) => (b.bytes > a.bytes ? b : a));
const summaries = (p: Played): string =>
  p.summaries.length
    ? `; ${p.summaries.length} summary requests, largest ${both(largest(p.summaries))}`
    : '';

async function main(): Promise<void> {
  const corpus = sourceCorpus();
  const model = process.argv[2] ?? 'gpt-4o';
  const short = await play(model, thirtyStepScenario(corpus));
  console.log(
    `${model}, 30-step scenario: ${short.steps.length} requests; first ${both(short.steps[0])}, ` +
      `mean ${both(mean(short.steps))}, last ${both(short.steps.at(-1))}${summaries(short)}`,
  );
  const long = await play(model, longScenario(corpus, 500));
  const at = (step: number): string => both(long.steps[step - 1]);
  console.log(
    `${model}, long scenario (500 steps, 100 writes of 8.8 KB): step 100 ${at(100)}, ` +
      `step 300 ${at(300)}, step 500 ${at(500)}; largest ${both(largest(long.steps))}; ` +
      `mean ${both(mean(long.steps))}${summaries(long)}`,
  );
  for (const size of [600, 200]) {
    const big = await play(model, bigWriteScenario(corpus, size, 100));
    // Requests 0 and 1 come before the write; request 2 is the first to carry it.
    const after = big.steps.slice(2);
    console.log(
      `${model}, one ${size} KB write_file then 100 steps: the 4 requests after it ` +
        `${after.slice(0, 4).map(both).join(', ')}; mean of the 101 after ${both(mean(after))}` +
        summaries(big),
    );
  }
}

void main();
