// Policy benchmark: the time one decision for a command takes in process, after warm-up (the
// parser loaded), through the same `decidePolicy` the runner, the window and the CLI call, on a
// small git project and on this repository's own checkout (thousands of files, node_modules).
// Run: npx tsx bench/policy.bench.ts
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decidePolicy } from '../src/main/permissions/policy';
import { realPolicyDeps } from '../src/main/permissions/real-policy-deps';

const COMMANDS = [
  'ls -la',
  'cat README.md',
  'grep -rn TODO src',
  'git status',
  'git log --oneline -5',
  'head -50 package.json | wc -l',
  "find . -name '*.ts'",
  'npm test',
  'rm -rf build',
  'echo hi > out.txt',
];
const RUNS = 200;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

async function decide(command: string, folder: string): Promise<string> {
  const decided = await decidePolicy(
    {
      toolName: 'shell',
      effect: 'exec',
      target: { kind: 'command', command },
      folder,
      mode: 'ask',
      network: 'off',
      rules: [],
      grants: [],
      sandbox: { kind: 'bwrap', available: true, description: 'bench' },
    },
    realPolicyDeps,
  );
  return decided.decision;
}

async function measure(folder: string, label: string): Promise<void> {
  console.log(`\n${label} (${folder})`);
  console.log('command                         decision  median ms  p95 ms');
  for (const command of COMMANDS) {
    const decision = await decide(command, folder); // warm-up: parser, git lookups cached
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await decide(command, folder);
      times.push(performance.now() - start);
    }
    console.log(
      `${command.padEnd(32)}${decision.padEnd(10)}${median(times).toFixed(3).padStart(9)}${p95(times).toFixed(3).padStart(8)}`,
    );
  }
}

async function main(): Promise<void> {
  const small = await mkdtemp(path.join(os.tmpdir(), 'tandem-policy-bench-'));
  try {
    for (const name of ['README.md', 'package.json', 'a.ts', 'b.ts']) {
      await writeFile(path.join(small, name), `${name}\n`);
    }
    execFileSync('git', ['init', '-q'], { cwd: small });
    console.log(`policy decisions, ${RUNS} runs each after one warm-up, Node ${process.version}`);
    await measure(small, 'small git project');
    await measure(path.resolve(__dirname, '..'), "this repository's checkout");
  } finally {
    await rm(small, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
