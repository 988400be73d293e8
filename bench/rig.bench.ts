// Rig benchmark (issue 15): the 30-turn scripted task of the peer rig (rig-scenario.ts) played by
// Tandem — `tandem run --mode autonomous --json` called in this process, so the real agent, gate,
// journal, change tracking and bubblewrap — and by a bare 60-line loop (rig-bare-loop.ts) against
// the same instant model over real HTTP, alternated round after round so a busy machine slows
// both alike. Then, for peak RSS, the bare loop in a process of its own beside the built CLI
// (out/main/cli.js, when built) as a person would start it, both on plain Node.
//
//  * time per turn: wall / 30, and the median of per-turn times (request arrival to arrival);
//  * CPU: process.cpuUsage() over the task (this process: both the client and the server side),
//    and the CPU of waited-for children (bash, bwrap) from /proc/self/stat;
//  * per tool: medians of Tandem's own tool-result durationMs, and of the rest of the turn
//    (model request, gate, events, transcript) for turns with that tool.
//
// Run: npm run bench:rig [-- --rounds 5] [--in-process-only | --children-only] [--cli PATH ...]
// (npm run build first for the CLI's figures; --cli compares other builds in the same rounds)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { median } from './percentiles';
import { threadCpuMs } from './thread-cpu';
import {
  jsonLineCollector,
  phasesByTool,
  printPhases,
  type Phases,
  type TimedEvent,
} from './rig-phases';
import { checkRigOutcome, makeRigProject, startRigServer, TURNS, turnTimes } from './rig-scenario';

type Variant = 'bare' | 'tandem';
const TASK = 'Work through the modules: read each, edit it, log ok, and look around.';
const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 5;
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  throw new Error('--rounds takes a whole number of at least 1');
}
// --cli (repeatable) measures other builds too (an older one copied aside), in the same rounds.
const CLIS = (() => {
  const given = process.argv.flatMap((arg, at) =>
    arg === '--cli' && process.argv[at + 1] ? [process.argv[at + 1] as string] : [],
  );
  return (given.length ? given : ['out/main/cli.js']).map((cli) => resolve(cli));
})();

interface Sample {
  readonly wallMs: number;
  readonly turnMs: readonly number[];
  readonly cpuMs: number;
  readonly childCpuMs: number;
  /** Tandem only: per tool name, the phases of each of its turns. */
  readonly tools: Map<string, Phases[]>;
}

/** CPU of this process's waited-for children (utime + stime, clock ticks of 10 ms). */
function childCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function playTandem(baseUrl: string, folder: string, dataDir: string) {
  const { main } = await import('../src/cli/index');
  const stdout = jsonLineCollector();
  const env: NodeJS.ProcessEnv = { ...process.env, TANDEM_HOME: dataDir, NO_COLOR: '1' };
  delete env.OPENAI_API_KEY;
  const code = await main(runArgs(baseUrl, folder, dataDir), {
    stdout,
    stderr: { write: (text: string) => void process.stderr.write(text) },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env,
    cwd: folder,
  });
  if (code !== 0) throw new Error(`tandem run exited with ${code}`);
  return stdout.events;
}

/** `tandem run` in Autonomous mode against the scripted server, JSON events on stdout. */
function runArgs(baseUrl: string, folder: string, dataDir: string): string[] {
  return ['run', '--folder', folder, '--data-dir', dataDir, '--base-url', baseUrl].concat([
    '--model',
    'scripted-model',
    '--mode',
    'autonomous',
    '--json',
    TASK,
  ]);
}

async function playOnce(variant: Variant): Promise<Sample> {
  const project = await makeRigProject();
  const { server, arrivals } = await startRigServer();
  try {
    const cpu = process.cpuUsage();
    const children = childCpuMs();
    const started = performance.now();
    let events: TimedEvent[] = [];
    if (variant === 'bare') {
      const { bareLoop } = await import('./rig-bare-loop');
      if ((await bareLoop(server.baseUrl, project.folder, TASK)) !== TURNS)
        throw new Error('the bare loop did not play 30 turns');
    } else {
      events = await playTandem(server.baseUrl, project.folder, project.dataDir);
    }
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const childMs = childCpuMs() - children;
    await checkRigOutcome(project.folder);
    if (arrivals.length !== TURNS) throw new Error(`${arrivals.length} requests, not ${TURNS}`);
    const turnMs = turnTimes(arrivals);
    const tools = phasesByTool(events, arrivals);
    return {
      wallMs,
      turnMs,
      cpuMs: (used.user + used.system) / 1000,
      childCpuMs: childMs,
      tools,
    };
  } finally {
    await server.close();
    await rm(project.root, { recursive: true, force: true });
  }
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

function describe(label: string, samples: readonly Sample[]): void {
  const wall = median(samples.map((s) => s.wallMs));
  console.log(
    `${label.padEnd(7)} wall/turn ${ms(wall / TURNS)}, median turn ${ms(median(samples.flatMap((s) => s.turnMs)))}, ` +
      `CPU ${ms(median(samples.map((s) => s.cpuMs)))} (+ children ${ms(median(samples.map((s) => s.childCpuMs)))})`,
  );
}

async function inProcess(): Promise<void> {
  console.log(`in this process: ${ROUNDS} rounds of each, alternated (after a warm-up of each)`);
  await playOnce('bare');
  await playOnce('tandem');
  const bare: Sample[] = [];
  const tandem: Sample[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await playOnce('bare'));
    tandem.push(await playOnce('tandem'));
  }
  describe('bare', bare);
  describe('tandem', tandem);
  const ratio = median(tandem.map((s) => s.wallMs)) / median(bare.map((s) => s.wallMs));
  console.log(`ratio Tandem/bare (median wall): ${ratio.toFixed(1)}x`);
  printPhases(
    'Tandem',
    tandem.map((s) => s.tools),
  );
}

interface ChildReport {
  /** Wall per turn, from the first request to the last (start-up is the startup bench's). */
  readonly turnMs: number;
  /** The child's whole CPU time, start-up included. */
  readonly cpuMs: number;
  /** Its CPU time from the first model request on (the task without start-up). */
  readonly taskCpuMs: number;
  /** A CLI's per-tool phases (from its --json events on the pipe). */
  readonly tools: Map<string, Phases[]>;
  readonly maxRssMiB: number;
}

/** The bare loop, or a built CLI by its path. */
type ChildKind = 'bare' | { readonly cli: string };

/** The bare loop bundled into one plain script, so its process runs on plain Node like the CLI. */
async function bundleBareChild(root: string): Promise<string> {
  const outfile = join(root, 'rig-bare-child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./rig-bare-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/** One variant in a process of its own on plain Node; a preload reports getrusage at exit. */
async function inChild(kind: ChildKind, bareScript: string): Promise<ChildReport> {
  const project = await makeRigProject();
  let pid = 0;
  let cpuAtFirst = NaN;
  const { server, arrivals } = await startRigServer((index) => {
    if (index === 0) cpuAtFirst = threadCpuMs(pid);
  });
  const report = join(project.root, 'usage.json');
  const preload = join(project.root, 'usage.cjs');
  await writeFile(
    preload,
    `process.on('exit', () => { const u = process.resourceUsage();
      require('fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({
        cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssMiB: u.maxRSS / 1024 })); });\n`,
  );
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, TANDEM_HOME: project.dataDir, NO_COLOR: '1' };
    delete env.OPENAI_API_KEY;
    const args =
      kind === 'bare'
        ? [bareScript, server.baseUrl, project.folder, TASK]
        : [kind.cli, ...runArgs(server.baseUrl, project.folder, project.dataDir)];
    const child = spawn(process.execPath, ['--require', preload, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const stdout = jsonLineCollector();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => (kind === 'bare' ? undefined : stdout.write(text)));
    pid = child.pid ?? 0;
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    if (code !== 0) throw new Error(`${kind} exited with ${code}`);
    if (arrivals.length !== TURNS) throw new Error(`${arrivals.length} requests, not ${TURNS}`);
    await checkRigOutcome(project.folder);
    const usage = JSON.parse(await readFile(report, 'utf8')) as {
      cpuMs: number;
      maxRssMiB: number;
    };
    const span = (arrivals[TURNS - 1] as number) - (arrivals[0] as number);
    return {
      ...usage,
      taskCpuMs: usage.cpuMs - cpuAtFirst,
      turnMs: span / (TURNS - 1),
      tools: phasesByTool(stdout.events, arrivals),
    };
  } finally {
    await server.close();
    await rm(project.root, { recursive: true, force: true });
  }
}

async function inChildren(): Promise<void> {
  const kinds: ChildKind[] = ['bare'];
  for (const cli of CLIS) {
    if (existsSync(cli)) kinds.push({ cli });
    else console.log(`(no ${cli}: npm run build for the CLI's figures)`);
  }
  const root = await mkdtemp(join(tmpdir(), 'tandem-rig-bundle-'));
  try {
    const bareScript = await bundleBareChild(root);
    const reports = new Map<ChildKind, ChildReport[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of kinds)
        reports.set(kind, [...(reports.get(kind) ?? []), await inChild(kind, bareScript)]);
    }
    console.log(
      `each in its own process on plain Node (${ROUNDS} runs each, alternated, medians):`,
    );
    for (const [kind, list] of reports) {
      const label = kind === 'bare' ? 'bare' : `CLI ${relative(process.cwd(), kind.cli)}`;
      console.log(
        `  ${label} wall/turn ${ms(median(list.map((r) => r.turnMs)))}, ` +
          `CPU ${ms(median(list.map((r) => r.cpuMs)))} (from the first request ${ms(median(list.map((r) => r.taskCpuMs)))}), ` +
          `peak RSS ${median(list.map((r) => r.maxRssMiB)).toFixed(0)} MiB (max ${Math.max(...list.map((r) => r.maxRssMiB)).toFixed(0)})`,
      );
    }
    for (const [kind, list] of reports) {
      if (kind !== 'bare')
        printPhases(
          `  CLI ${relative(process.cwd(), kind.cli)}`,
          list.map((r) => r.tools),
        );
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // --in-process-only: the alternated rounds alone (quicker, while profiling a change);
  // --children-only: the processes alone (to compare builds with --cli).
  if (process.argv.includes('--in-process-only')) return inProcess();
  if (process.argv.includes('--children-only')) return inChildren();
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${cpus().length} cores`,
  );
  await inProcess();
  await inChildren();
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  setTimeout(() => process.exit(0), 100).unref();
}

void main();
