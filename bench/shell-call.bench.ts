// Shell call bench (issue 15): the per-call cost of a write-capable command
// (`echo ok | tee -a shell_ok.log`) through the shell tool with change tracking, on a 20-file and
// a 10,000-file project, with and without bubblewrap, beside a raw spawn of the same command in the
// same run. The change tracking's own share (the look before and the look after) is timed apart.
// Also: preparing the index when a session opens, the first command, the walk fallback, and a
// 450 MB file with one appended line (time and peak RSS).
// Run: npm run bench:shell-call (npx tsx bench/shell-call.bench.ts); BIG_MB=0 skips the big file,
// BIG_ONLY=1 measures only it.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, open, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SandboxState } from '../src/shared/tool-types';
import { classifyCommand } from '../src/main/shell/command-classifier';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { runsReadOnly } from '../src/main/tools/builtin-tools';
import { withCommandJournal } from '../src/main/tools/command-journal';
import { createShellTool } from '../src/main/tools/shell-tool';
import type { ToolContext } from '../src/main/tools/tool';
import { openProjectJournal, type ProjectJournal } from '../src/main/workspace/project-journal';

const COMMAND = 'echo ok | tee -a shell_ok.log';
const RUNS = 30;
const NO_SANDBOX: SandboxState = {
  kind: 'none',
  available: false,
  description: 'off for the bench',
};

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

const ms = (values: readonly number[]): string =>
  `median ${median(values).toFixed(1)} ms, p95 ${p95(values).toFixed(1)} ms`;

async function makeProject(files: number): Promise<string> {
  const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), `tandem-bench-${files}-`)));
  const perDir = 100;
  for (let i = 0; i < files; i++) {
    const dir = path.join(folder, `d${Math.floor(i / perDir)}`, i % 2 ? 'sub' : '');
    if (i % perDir < 2) await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `f${i}.txt`), `file ${i}\n`.repeat(1 + (i % 20)));
  }
  return folder;
}

function rawSpawn(folder: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', COMMAND], { cwd: folder, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(performance.now() - start));
  });
}

interface Timed {
  before: number[];
  after: number[];
}

/** The tracker behind the tool, with the two looks timed. */
function timedSnapshots(project: ProjectJournal, timed: Timed) {
  return {
    async snapshotBefore(callId: string) {
      const start = performance.now();
      const result = await project.tracker.snapshotBefore(`bench/${callId}`);
      timed.before.push(performance.now() - start);
      return result;
    },
    async changesSince(callId: string) {
      const start = performance.now();
      const report = await project.tracker.changesSince(`bench/${callId}`);
      timed.after.push(performance.now() - start);
      return report;
    },
  };
}

let calls = 0;
function context(folder: string): ToolContext {
  return {
    folder,
    sessionId: 'bench',
    callId: `c${++calls}`,
    signal: new AbortController().signal,
    onOutput: () => undefined,
    services: {},
  };
}

async function measure(
  files: number,
  sandbox: SandboxState,
  watch: boolean,
  rows: string[],
): Promise<void> {
  const folder = await makeProject(files);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-data-'));
  const label = `${files.toLocaleString('en')} files, ${sandbox.available ? 'bwrap' : 'no sandbox'}${watch ? '' : ', walk (no watch)'}`;
  try {
    const openStart = performance.now();
    const project = await openProjectJournal({ folder, dataDir, tracker: { watch } });
    const prepareStart = performance.now();
    let prepareMs = 0;
    const prepared = project.tracker.prepare().then(() => {
      prepareMs = performance.now() - prepareStart;
    });
    const timed: Timed = { before: [], after: [] };
    const tool = withCommandJournal(createShellTool({ probe: async () => sandbox }), {
      snapshots: timedSnapshots(project, timed),
      isReadOnly: runsReadOnly,
    });
    // The first command, started as soon as the session opened (prepare still running).
    const first = performance.now();
    await tool.execute({ command: COMMAND }, context(folder));
    const firstMs = performance.now() - first;
    await prepared;
    if (watch && project.tracker.mode !== 'watch') throw new Error('the watch did not start');
    for (let i = 0; i < 3; i++) await tool.execute({ command: COMMAND }, context(folder));
    timed.before.length = 0;
    timed.after.length = 0;
    const raw: number[] = [];
    const call: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      raw.push(await rawSpawn(folder));
      const start = performance.now();
      const result = await tool.execute({ command: COMMAND }, context(folder));
      call.push(performance.now() - start);
      if (typeof result === 'string' || !result.changes || result.changes.kind !== 'tracked')
        throw new Error(`not tracked: ${JSON.stringify(result)}`);
    }
    const tracking = timed.before.map((b, i) => b + (timed.after[i] ?? 0));
    const overhead = call.map((c, i) => c - (raw[i] ?? 0));
    await project.release();
    // The next session on the same project starts from the index on disk: a walk, no reading.
    const again = await openProjectJournal({ folder, dataDir, tracker: { watch } });
    const againStart = performance.now();
    await again.tracker.prepare();
    const againMs = performance.now() - againStart;
    await again.release();
    rows.push(
      `| ${label} | ${ms(raw)} | ${ms(call)} | ${ms(overhead)} | ${ms(tracking)} (before ${median(timed.before).toFixed(1)}, after ${median(timed.after).toFixed(1)}) | ${firstMs.toFixed(0)} ms | ${prepareMs.toFixed(0)} ms (open ${(prepareStart - openStart).toFixed(0)} ms); next open ${againMs.toFixed(0)} ms |`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function bigFile(megabytes: number): Promise<string> {
  const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-big-')));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-data-'));
  try {
    const handle = await open(path.join(folder, 'big.log'), 'w');
    const chunk = Buffer.from('x'.repeat(1023) + '\n');
    const block = Buffer.concat(Array.from({ length: 1024 }, () => chunk));
    for (let i = 0; i < megabytes; i++) await handle.write(block);
    await handle.close();
    const project = await openProjectJournal({ folder, dataDir });
    const prepareStart = performance.now();
    await project.tracker.prepare();
    const prepareMs = performance.now() - prepareStart;
    const timed: Timed = { before: [], after: [] };
    const tool = withCommandJournal(createShellTool({ probe: async () => NO_SANDBOX }), {
      snapshots: timedSnapshots(project, timed),
      isReadOnly: async () => false,
    });
    const start = performance.now();
    const result = await tool.execute(
      { command: 'echo one more line >> big.log' },
      context(folder),
    );
    const callMs = performance.now() - start;
    const revertStart = performance.now();
    const reverted = await project.journal.revert(`bench/c${calls}`);
    const revertMs = performance.now() - revertStart;
    const rss = process.resourceUsage().maxRSS / 1024;
    await project.release();
    const summary = typeof result === 'string' ? result : (result.output.split('\n').at(-1) ?? '');
    return (
      `| ${megabytes} MB file, one line appended | prepare ${(prepareMs / 1000).toFixed(1)} s; call ${(callMs / 1000).toFixed(1)} s ` +
      `(before ${median(timed.before).toFixed(0)} ms, after ${median(timed.after).toFixed(0)} ms); ` +
      `revert ${(revertMs / 1000).toFixed(1)} s (${reverted.ok ? 'ok' : 'failed'}); peak RSS of the whole bench ${rss.toFixed(0)} MiB; "${summary}" |`
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sandbox = await probeSandbox();
  // The parser loads once per process (issue 15 counts it apart); warm it so the first command
  // shows what tracking adds.
  await classifyCommand(COMMAND, os.tmpdir());
  const rows: string[] = [];
  const bigOnly = process.env.BIG_ONLY === '1';
  for (const files of bigOnly ? [] : [20, 10_000]) {
    await measure(files, NO_SANDBOX, true, rows);
    if (sandbox.available) await measure(files, sandbox, true, rows);
    else rows.push(`| ${files} files, bwrap | not measured: ${sandbox.description} |`);
  }
  if (!bigOnly) await measure(10_000, NO_SANDBOX, false, rows);
  const bigMb = Number(process.env.BIG_MB ?? 450);
  console.log(
    `Command: \`${COMMAND}\`; ${RUNS} runs after 3 warm-up calls; ${os.cpus().length} cores, Node ${process.version}, ${os.platform()} ${os.release()}\n`,
  );
  console.log(
    '| project | raw spawn | shell tool call | call − raw | change tracking (before + after) | first command (sent at open) | prepare at open (first ever; next open) |\n| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const row of rows) console.log(row);
  if (bigMb > 0) {
    console.log('\n| big file | result |\n| --- | --- |');
    console.log(await bigFile(bigMb));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
