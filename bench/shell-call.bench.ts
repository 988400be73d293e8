// Shell call bench (issue 15): the per-call cost of a write-capable command
// (`echo ok | tee -a shell_ok.log`) through the shell tool with change tracking, on a 20-file and
// a 10,000-file project, with and without bubblewrap, beside a raw spawn of the same command in the
// same run. Each call is classified once and handed to the tool with a permit, as the permission
// gate does. The classification and the change tracking's share (the look before and the look
// after) are timed apart; with bubblewrap, so is a raw spawn of the exact bwrap argv the tool runs.
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
import { shellArgv } from '../src/main/shell/pty-session';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { prepareSandbox } from '../src/main/shell/sandbox-wrap';
import { runsReadOnly } from '../src/main/tools/builtin-tools';
import { withCommandJournal } from '../src/main/tools/command-journal';
import { createShellTool } from '../src/main/tools/shell-tool';
import type { AnyTool, ToolContext } from '../src/main/tools/tool';
import { openProjectJournal, type ProjectJournal } from '../src/main/workspace/project-journal';
import { median, p95 } from './percentiles';

const COMMAND = 'echo ok | tee -a shell_ok.log';
const RUNS = 30;
const NO_SANDBOX: SandboxState = {
  kind: 'none',
  available: false,
  description: 'off for the bench',
};

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

function rawSpawn(
  folder: string,
  argv: readonly string[] = ['/bin/bash', '-c', COMMAND],
): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const [file = '', ...args] = argv;
    const child = spawn(file, args, { cwd: folder, stdio: 'ignore' });
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
function context(folder: string, permit?: ToolContext['permit']): ToolContext {
  return {
    folder,
    sessionId: 'bench',
    callId: `c${++calls}`,
    signal: new AbortController().signal,
    onOutput: () => undefined,
    services: {},
    ...(permit ? { permit } : {}),
  };
}

/** One call as the agent makes it: classified once (the gate), then run with the person's permit. */
async function gatedCall(tool: AnyTool, folder: string, classified: number[]) {
  const start = performance.now();
  const verdict = await classifyCommand(COMMAND, folder);
  classified.push(performance.now() - start);
  return tool.execute({ command: COMMAND }, context(folder, { basis: 'person', command: verdict }));
}

/** The exact argv the shell tool runs for COMMAND under `sandbox` (bwrap's, with its mounts). */
async function sandboxArgv(sandbox: SandboxState, folder: string): Promise<readonly string[]> {
  const prepared = await prepareSandbox(sandbox, {
    folder,
    home: os.homedir(),
    allowNetwork: false,
    access: { kind: 'read-write', git: 'read-only' },
    dataFolders: [],
  });
  await prepared.finish();
  const argv = shellArgv(COMMAND);
  return prepared.wrap ? prepared.wrap(argv) : argv;
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
    const classified: number[] = [];
    // The first command, started as soon as the session opened (prepare still running).
    const first = performance.now();
    await gatedCall(tool, folder, classified);
    const firstMs = performance.now() - first;
    await prepared;
    if (watch && project.tracker.mode !== 'watch') throw new Error('the watch did not start');
    for (let i = 0; i < 3; i++) await gatedCall(tool, folder, classified);
    timed.before.length = 0;
    timed.after.length = 0;
    classified.length = 0;
    const wrapped = sandbox.available ? await sandboxArgv(sandbox, folder) : undefined;
    const raw: number[] = [];
    const rawWrapped: number[] = [];
    const call: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      raw.push(await rawSpawn(folder));
      if (wrapped) rawWrapped.push(await rawSpawn(folder, wrapped));
      const start = performance.now();
      const result = await gatedCall(tool, folder, classified);
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
      `| ${label} | ${ms(raw)} | ${rawWrapped.length > 0 ? ms(rawWrapped) : '–'} | ${ms(call)} | ${ms(overhead)} | ${median(classified).toFixed(1)} ms | ${ms(tracking)} (before ${median(timed.before).toFixed(1)}, after ${median(timed.after).toFixed(1)}) | ${firstMs.toFixed(0)} ms | ${prepareMs.toFixed(0)} ms (open ${(prepareStart - openStart).toFixed(0)} ms); next open ${againMs.toFixed(0)} ms |`,
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
  const cpu = process.cpuUsage();
  console.log(
    `Command: \`${COMMAND}\`; ${RUNS} runs after 3 warm-up calls; ${os.cpus().length} cores, Node ${process.version}, ${os.platform()} ${os.release()}; load average at the end ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; this process used ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU\n`,
  );
  console.log(
    '| project | raw spawn | raw spawn of the bwrap argv | shell tool call | call − raw | classification | change tracking (before + after) | first command (sent at open) | prepare at open (first ever; next open) |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
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
