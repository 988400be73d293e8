// MCP benchmark: time from a session opening its folder (McpHost.openFolder) until
// server-everything's tools are in the registry, over stdio inside bubblewrap, over stdio without
// a sandbox, and over Streamable HTTP (server already running); and the time one MCP call adds
// over a built-in read (read_file of a small file) through the same registry.
// Run: npm run bench:mcp
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MCP_CHOICES } from '../src/shared/mcp-types';
import type { SandboxState } from '../src/shared/tool-types';
import { McpHost } from '../src/main/mcp/mcp-host';
import { JsonFileMcpSettingsStore } from '../src/main/mcp/mcp-stores';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { createFileTools } from '../src/main/tools/files';
import { createToolRegistry, type ToolRegistry } from '../src/main/tools/registry';
import {
  EVERYTHING_ENTRY,
  startHttpEverything,
  toolContext,
} from '../src/test-support/mcp-servers';

const OPEN_RUNS = 10;
const CALL_RUNS = 300;
const NO_SANDBOX: SandboxState = { kind: 'none', available: false, description: 'off' };

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

const ms = (v: number): string => `${v.toFixed(v < 10 ? 2 : 1)} ms`;

async function hostWith(
  dataDir: string,
  config: Record<string, unknown>,
  sandbox: SandboxState,
): Promise<McpHost> {
  const store = new JsonFileMcpSettingsStore(dataDir);
  await store.saveApp({
    servers: { everything: { config, choices: { ...DEFAULT_MCP_CHOICES, trusted: true } } },
  });
  return new McpHost({ store, sandbox: async () => sandbox });
}

/** openFolder → every tool of the server in the registry, OPEN_RUNS times. */
async function timeToTools(
  folder: string,
  dataDir: string,
  config: Record<string, unknown>,
  sandbox: SandboxState,
): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < OPEN_RUNS; run++) {
    const host = await hostWith(dataDir, config, sandbox);
    const registry = createToolRegistry();
    host.attach(registry);
    const start = performance.now();
    await host.openFolder(folder);
    await host.whenSettled(30_000);
    const elapsed = performance.now() - start;
    if (!registry.get('mcp__everything__echo')) throw new Error('no tools: the server failed');
    times.push(elapsed);
    await host.close();
  }
  return times;
}

async function callTimes(
  registry: ToolRegistry,
  name: string,
  args: Record<string, unknown>,
  folder: string,
): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < CALL_RUNS; run++) {
    const start = performance.now();
    const prepared = registry.prepare(name, JSON.stringify(args));
    if (!prepared.ok) throw new Error(prepared.message);
    const result = await registry.execute(prepared.tool, prepared.args, toolContext(folder));
    if (!result.ok) throw new Error(result.output);
    times.push(performance.now() - start);
  }
  return times;
}

async function main(): Promise<void> {
  const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-mcp-')));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-mcp-data-'));
  await writeFile(path.join(folder, 'notes.txt'), 'a small file\n'.repeat(20));
  const sandbox = await probeSandbox();
  const stdio = { command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] };
  const rows: [string, string][] = [];
  const http = await startHttpEverything('streamableHttp');
  try {
    const open = async (label: string, config: Record<string, unknown>, state: SandboxState) => {
      const times = await timeToTools(folder, dataDir, config, state);
      rows.push([label, `median ${ms(median(times))}, p95 ${ms(p95(times))} (${OPEN_RUNS} runs)`]);
    };
    if (sandbox.available) await open('open → tools ready, stdio in bubblewrap', stdio, sandbox);
    await open('open → tools ready, stdio without sandbox', stdio, NO_SANDBOX);
    await open('open → tools ready, Streamable HTTP', { url: http.url }, sandbox);

    for (const [label, config, state] of [
      ['stdio in bubblewrap', stdio, sandbox],
      ['Streamable HTTP', { url: http.url }, sandbox],
    ] as const) {
      if (label === 'stdio in bubblewrap' && !sandbox.available) continue;
      const host = await hostWith(dataDir, config, state);
      const registry = createToolRegistry(createFileTools());
      host.attach(registry);
      await host.openFolder(folder);
      await host.whenSettled(30_000);
      // Warm both paths, then measure them interleaved in blocks so load drifts hit both.
      await callTimes(registry, 'read_file', { path: 'notes.txt' }, folder);
      await callTimes(registry, 'mcp__everything__echo', { message: 'hello' }, folder);
      const builtin = await callTimes(registry, 'read_file', { path: 'notes.txt' }, folder);
      const mcp = await callTimes(registry, 'mcp__everything__echo', { message: 'hello' }, folder);
      rows.push(
        [
          `built-in read_file (${label} run)`,
          `median ${ms(median(builtin))}, p95 ${ms(p95(builtin))}`,
        ],
        [
          `MCP echo, ${label}`,
          `median ${ms(median(mcp))}, p95 ${ms(p95(mcp))} (${CALL_RUNS} calls)`,
        ],
        [
          `added per MCP call, ${label}`,
          `${ms(median(mcp) - median(builtin))} (median difference)`,
        ],
      );
      await host.close();
    }
  } finally {
    await http.close();
    await rm(folder, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`MCP (server-everything), Node ${process.version}, ${os.cpus().length} cores`);
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
}

void main();
