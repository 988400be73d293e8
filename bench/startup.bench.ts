// Startup benchmark: how long the built command line (out/main/cli.js) takes before it does its
// job, beside `node -e 0` measured in the same rounds, so the figures say what Tandem adds to
// Node itself. The commands run in turn, round after round, so a busy machine slows all alike.
//
//  * wall: spawn to exit; for `run`, spawn to the moment the scripted OpenAI-compatible server
//    receives the first chat request.
//  * CPU: user + system time of the child (getrusage, read by a preload at exit; for `run`, the
//    per-thread scheduler clocks in /proc at the first request). Less sensitive to load than wall.
//  * first vs later command: a `tandem run --json` whose model asks for the same read-only command
//    twice (after a model latency of LATENCY_MS, like a hosted model's first token); from the
//    JSON events, the time from tool-call-started to permission-decided (policy) and to
//    tool-result (policy, sandbox and the command), first call against second.
//
// Run: npm run build && npm run bench:startup [-- --runs 9] [--cli out/main/cli.js --cli other/cli.js]
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import {
  startScriptedOpenAIServer,
  type ScriptedTurn,
} from '../src/test-support/scripted-openai-server';
import { median } from './percentiles';
import { threadCpuMs } from './thread-cpu';

function flags(name: string): string[] {
  return process.argv.flatMap((arg, at) =>
    arg === name && process.argv[at + 1] ? [process.argv[at + 1] as string] : [],
  );
}

// --cli (repeatable) measures other builds too (an older one copied aside, say), in the same
// rounds, so a busy machine slows them alike; the default is this checkout's out/main/cli.js.
const CLIS = (flags('--cli').length ? flags('--cli') : ['out/main/cli.js']).map((cli) =>
  resolve(cli),
);
const RUNS = Number(flags('--runs')[0] ?? 9);
const LATENCY_MS = [0, 300];

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

interface Fixture {
  readonly root: string;
  readonly project: string;
  readonly dataDir: string;
  readonly preload: string;
  readonly env: NodeJS.ProcessEnv;
}

async function fixture(): Promise<Fixture> {
  const root = await mkdtemp(join(tmpdir(), 'tandem-startup-'));
  const project = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(project);
  await mkdir(home);
  await writeFile(join(project, 'README.md'), '# bench\n');
  // A repository, so `git status` takes the classifier's repository checks.
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: project });
  git('init', '-q');
  git('-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-q', '--allow-empty', '-m', 'x');
  const preload = join(root, 'cpu-report.cjs');
  await writeFile(
    preload,
    `process.on('exit', () => { const u = process.cpuUsage();
       require('fs').writeFileSync(process.env.CPU_REPORT, String((u.user + u.system) / 1000)); });\n`,
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TANDEM_HOME: join(root, 'data'),
    NO_COLOR: '1',
  };
  return { root, project, dataDir: join(root, 'data'), preload, env };
}

/** Runs `node [preload] args` to its end: wall time and the child's own CPU time. */
async function timed(fx: Fixture, args: readonly string[]): Promise<Sample> {
  const report = join(fx.root, 'cpu.txt');
  const started = performance.now();
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, ['--require', fx.preload, ...args], {
      env: { ...fx.env, CPU_REPORT: report },
      stdio: 'ignore',
    });
    child.on('exit', done);
  });
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return { wallMs, cpuMs: Number(await readFile(report, 'utf8')) };
}

/**
 * `tandem run` to its first model request: wall and CPU at the moment the server gets it. The
 * model's name matters: for one whose tokenizer Tandem knows (gpt-4o), the tokenizer loads once
 * that request is sent (before issue 15's last changes, before it was fitted). The chunks come
 * from V8's code cache (in the fixture's HOME) from the second round on.
 */
async function runToFirstRequest(fx: Fixture, cli: string, model: string): Promise<Sample> {
  let sample: Sample | undefined;
  let pid = 0;
  let started = 0;
  const server = await startScriptedOpenAIServer({
    turns: () => {
      sample ??= { wallMs: performance.now() - started, cpuMs: threadCpuMs(pid) };
      return { text: 'done' };
    },
  });
  try {
    started = performance.now();
    const code = await new Promise<number | null>((done) => {
      const args = [...runArgs(fx, server.baseUrl, model), 'say done'];
      const child = spawn(process.execPath, [cli, ...args], {
        env: fx.env,
        stdio: 'ignore',
      });
      pid = child.pid ?? 0;
      child.on('exit', done);
    });
    if (code !== 0 || !sample) throw new Error(`tandem run exited with ${code}`);
    return sample;
  } finally {
    await server.close();
  }
}

function runArgs(fx: Fixture, baseUrl: string, model = 'scripted-model'): string[] {
  return [
    'run',
    '--folder',
    fx.project,
    '--data-dir',
    fx.dataDir,
    '--base-url',
    baseUrl,
    '--model',
    model,
  ];
}

interface CallTimes {
  readonly policyMs: number;
  readonly callMs: number;
}

/** Two identical read-only command calls in one run: their times, from the JSON events. */
async function twoCommands(
  fx: Fixture,
  cli: string,
  command: string,
  latencyMs: number,
): Promise<[CallTimes, CallTimes]> {
  const call = (id: string): ScriptedTurn => ({
    toolCalls: [{ id, name: 'shell', arguments: { command } }],
  });
  const server = await startScriptedOpenAIServer({
    turns: [{ ...call('c1'), delayMs: latencyMs }, call('c2'), { text: 'done' }],
  });
  const seen = new Map<string, { started?: number; decided?: number; result?: number }>();
  try {
    const child = spawn(
      process.execPath,
      [cli, ...runArgs(fx, server.baseUrl), '--json', 'run it twice'],
      { env: fx.env, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const exited = new Promise<number | null>((done) => child.on('exit', done));
    for await (const line of createInterface({ input: child.stdout })) {
      const now = performance.now();
      const event = JSON.parse(line) as { type: string; callId?: string; decision?: string };
      if (!event.callId) continue;
      const times = seen.get(event.callId) ?? {};
      if (event.type === 'tool-call-started') times.started = now;
      if (event.type === 'permission-decided') {
        if (event.decision !== 'run') throw new Error(`${command} was not auto-run`);
        times.decided = now;
      }
      if (event.type === 'tool-result') times.result = now;
      seen.set(event.callId, times);
    }
    if ((await exited) !== 0) throw new Error('tandem run (two commands) failed');
  } finally {
    await server.close();
  }
  const timesOf = (id: string): CallTimes => {
    const t = seen.get(id);
    if (t?.started === undefined || t.decided === undefined || t.result === undefined)
      throw new Error(`call ${id} did not finish`);
    return { policyMs: t.decided - t.started, callMs: t.result - t.started };
  };
  return [timesOf('c1'), timesOf('c2')];
}

function row(label: string, samples: readonly Sample[], base?: readonly Sample[]): string {
  const wall = median(samples.map((s) => s.wallMs));
  const cpu = median(samples.map((s) => s.cpuMs));
  const least = Math.min(...samples.map((s) => s.cpuMs));
  const extra = base
    ? `   +${(wall - median(base.map((s) => s.wallMs))).toFixed(0)} / +${(cpu - median(base.map((s) => s.cpuMs))).toFixed(0)} over node`
    : '';
  return `${label.padEnd(36)} ${wall.toFixed(0).padStart(6)} ms ${cpu.toFixed(0).padStart(6)} ms ${least.toFixed(0).padStart(6)} ms${extra}`;
}

type Measure = (fx: Fixture, cli: string) => Promise<Sample>;

const STARTUP: readonly (readonly [string, Measure])[] = [
  ['tandem --version', (f, cli) => timed(f, [cli, '--version'])],
  ['tandem --help', (f, cli) => timed(f, [cli, '--help'])],
  [
    "tandem policy --command 'ls -la'",
    (f, cli) => timed(f, [cli, 'policy', '--folder', f.project, '--command', 'ls -la']),
  ],
  ['tandem run, to its first request', (f, cli) => runToFirstRequest(f, cli, 'scripted-model')],
  ['the same, --model gpt-4o', (f, cli) => runToFirstRequest(f, cli, 'gpt-4o')],
];

async function main(): Promise<void> {
  for (const cli of CLIS) {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" first`);
  }
  const fx = await fixture();
  const node: Sample[] = [];
  const samples = new Map<string, Sample[]>();
  const calls = new Map<string, [CallTimes, CallTimes][]>();
  const key = (cli: string, label: string | number): string => `${cli}\0${label}`;
  const push = <T>(map: Map<string, T[]>, at: string, value: T): void =>
    void (map.get(at) ?? map.set(at, []).get(at))?.push(value);
  try {
    for (const cli of CLIS) await timed(fx, [cli, '--version']); // warms the file cache
    for (let round = 0; round < RUNS; round++) {
      node.push(await timed(fx, ['-e', '0']));
      for (const cli of CLIS) {
        for (const [label, measure] of STARTUP)
          push(samples, key(cli, label), await measure(fx, cli));
        for (const latency of LATENCY_MS) {
          push(calls, key(cli, latency), await twoCommands(fx, cli, 'git status --short', latency));
        }
      }
    }
  } finally {
    await rm(fx.root, { recursive: true, force: true });
  }
  console.log(`Startup, ${RUNS} rounds (Node ${process.version}); wall and CPU are medians`);
  console.log(
    `${'command'.padEnd(36)} ${'wall'.padStart(9)} ${'CPU'.padStart(9)} ${'min CPU'.padStart(9)}`,
  );
  console.log(row('node -e 0', node));
  for (const cli of CLIS) {
    console.log(`\n${cli}`);
    for (const [label] of STARTUP)
      console.log(row(label, samples.get(key(cli, label)) ?? [], node));
    console.log(`  first vs second "git status --short" in one run (median ms)`);
    console.log('  model latency   policy 1st  policy 2nd   call 1st   call 2nd');
    for (const latency of LATENCY_MS) {
      const list = calls.get(key(cli, latency)) ?? [];
      const m = (pick: (pair: [CallTimes, CallTimes]) => number): string =>
        median(list.map(pick)).toFixed(1).padStart(10);
      console.log(
        `  ${String(latency).padStart(10)} ms ${m((p) => p[0].policyMs)} ${m((p) => p[1].policyMs)} ${m((p) => p[0].callMs)} ${m((p) => p[1].callMs)}`,
      );
    }
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
