// Secret masking benchmark: what scanning one tool result costs (tool-calls.ts masks every
// result before the model sees it). Typical outputs at the registry's 30,000-character bound, and
// 100 KB inputs built to stall a backtracking engine (RE2 keeps them linear). Prints figures.
// Run: npx tsx bench/secret-mask.bench.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskSecrets } from '../src/main/agent/secret-mask';

const ROUNDS = 7;
const BOUND = 30_000;

function fit(text: string, size: number): string {
  return text.repeat(Math.ceil(size / text.length)).slice(0, size);
}

const root = join(__dirname, '..');
const INPUTS: readonly [string, string][] = [
  [
    'TypeScript source (30 KB)',
    fit(readFileSync(join(root, 'src/main/tools/registry.ts'), 'utf8'), BOUND),
  ],
  ['package-lock.json (30 KB)', fit(readFileSync(join(root, 'package-lock.json'), 'utf8'), BOUND)],
  [
    'shell log with env lines (30 KB)',
    fit(
      'PATH=/usr/bin:/bin\nHOME=/home/p\nBUILD 42 ok in 1.3 s\nAPI_URL=https://api.example.org\n',
      BOUND,
    ),
  ],
  ['minified JSON (30 KB)', fit('{"id":"3f2b8c1e","name":"x","tags":["a","b"],"n":12},', BOUND)],
  ['100 KB of "KEY="', fit('KEY=', 100 * 1024)],
  ['100 KB of "Bearer "', fit('Bearer ', 100 * 1024)],
  ['100 KB of "a: "', fit('a: ', 100 * 1024)],
  ['100 KB of "sk-a-"', fit('sk-a-', 100 * 1024)],
  ['100 KB after a private key header', `-----BEGIN PRIVATE KEY-----${fit('A', 100 * 1024)}`],
];

function msPer(text: string): number {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    maskSecrets(text);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

maskSecrets('warm up: API_KEY=abc123def456'); // compiles the patterns once
console.log(`secret masking, median of ${ROUNDS} rounds (Node ${process.version})`);
console.log('| input | ms per scan | MB/s |');
console.log('| --- | --- | --- |');
for (const [name, text] of INPUTS) {
  const ms = msPer(text);
  console.log(`| ${name} | ${ms.toFixed(1)} | ${(text.length / 1e6 / (ms / 1000)).toFixed(2)} |`);
}
