// Search benchmark: the search tool's worker job next to `grep -r` over the same generated
// 50,000-file project (about 130 MB of code-like text) in the same run, per pattern, with the
// match counts side by side (they must agree). Then the two RE2 engines that were candidates,
// re2js (pure JavaScript, used) and re2-wasm (WebAssembly), over the same text, with their size.
// Run: npm run bench:search  (npx tsx bench/search.bench.ts [files])
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RE2JS } from 're2js';
import { RE2 } from 're2-wasm';
import type { ContentSearchJob } from '../src/main/tools/files/content-search';
import { runContentSearch } from '../src/main/tools/files/parallel-search';
import { MAX_SCAN_THREADS } from '../src/main/tools/files/scan-worker-client';

const FILES = Number(process.argv[2] ?? 50_000);
const RUNS = 3;

interface Case {
  readonly name: string;
  readonly grep: readonly string[];
  readonly pattern: string;
  readonly caseSensitive: boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'identifier',
    grep: ['-F', 'parserStream'],
    pattern: 'parserStream',
    caseSensitive: true,
  },
  {
    name: 'regex with a required word',
    grep: ['-E', 'function [a-z]+Token\\('],
    pattern: 'function [a-z]+Token\\(',
    caseSensitive: true,
  },
  {
    name: 'case-insensitive',
    grep: ['-i', '-F', 'RETURN SESSION'],
    pattern: 'RETURN SESSION',
    caseSensitive: false,
  },
  {
    name: 'no required text',
    grep: ['-E', '[0-9]{3}\\);$'],
    pattern: '[0-9]{3}\\);$',
    caseSensitive: true,
  },
];

function makeCorpus(root: string, files: number): number {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, '.gitignore'), 'node_modules/\ndist/\n*.log\ncoverage/\n');
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const ids = [
    'value',
    'result',
    'handler',
    'request',
    'response',
    'config',
    'options',
    'items',
    'index',
    'buffer',
    'count',
    'state',
    'session',
    'client',
    'server',
    'token',
    'parser',
    'stream',
    'record',
    'entry',
  ];
  const keywords = ['const', 'let', 'return', 'await', 'if', 'for', 'while', 'throw', 'yield'];
  const cap = (word: string): string => word[0]?.toUpperCase() + word.slice(1);
  const line = (): string => {
    const r = random();
    const indent = '  '.repeat(Math.floor(random() * 4));
    if (r < 0.1)
      return `${indent}// ${pick(ids)} ${pick(ids)} ${pick(ids)} ${pick(keywords)} ${pick(ids)}`;
    if (r < 0.2) return `${indent}import { ${pick(ids)}, ${pick(ids)} } from './${pick(ids)}';`;
    if (r < 0.3)
      return `${indent}function ${pick(ids)}${cap(pick(ids))}(${pick(ids)}, ${pick(ids)}) {`;
    if (r < 0.35) return `${indent}}`;
    return `${indent}${pick(keywords)} ${pick(ids)} = ${pick(ids)}.${pick(ids)}(${pick(ids)}, ${Math.floor(random() * 1000)});`;
  };
  let bytes = 0;
  for (let i = 0; i < files; i += 1) {
    const dir = join(root, `pkg${Math.floor(i / 1000)}`, `mod${Math.floor(i / 100) % 10}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    const text = `${Array.from({ length: 20 + Math.floor(random() * 120) }, line).join('\n')}\n`;
    bytes += text.length;
    writeFileSync(join(dir, `file${i}.ts`), text);
  }
  return bytes;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

interface Timing {
  /** Wall-clock milliseconds. */
  readonly ms: number;
  /** CPU milliseconds (user + system, all threads). */
  readonly cpu: number;
}

function grepRun(root: string, c: Case): Timing & { count: number } {
  const out = join(tmpdir(), 'tandem-bench-grep.out');
  const start = performance.now();
  // bash's `times` prints the CPU time of its children (grep) on its second line.
  const result = spawnSync('bash', ['-c', 'grep -r "$@" > "$0"; times', out, ...c.grep, root]);
  const ms = performance.now() - start;
  const children = result.stdout.toString().trim().split('\n')[1] ?? '';
  const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, m) => sum + (Number(m[1]) * 60 + Number(m[2])) * 1000,
    0,
  );
  const count = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
  return { ms, cpu, count };
}

function job(root: string, c: Case): Omit<ContentSearchJob, 'shard'> {
  return {
    kind: 'content',
    folder: root,
    start: root,
    startRelative: '.',
    startIsFile: false,
    pattern: c.pattern,
    literal: false,
    caseSensitive: c.caseSensitive,
    maxResults: 100,
    countLimit: 10_000, // as the tool does
    limits: { maxItems: 1_000_000, maxCounted: 1_000_000, deadline: Date.now() + 600_000 },
  };
}

/** Matches found; `N+` when the tool stopped counting (it then counts files with matches only). */
async function toolRun(
  root: string,
  c: Case,
  threads?: number,
): Promise<Timing & { count: string }> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const report = await runContentSearch(job(root, c), {
    signal: new AbortController().signal,
    hardTimeoutMs: 600_000,
    ...(threads ? { threads } : {}),
  });
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpuStart);
  return {
    ms,
    cpu: (used.user + used.system) / 1000,
    count: `${report.matches.length + report.leftOut}${report.countingStopped ? '+' : ''}`,
  };
}

function sizeOnDisk(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOnDisk(join(path, name)), 0);
}

function engines(root: string): string[] {
  // Every file's text, tested whole per file as the search does (one regex test per file).
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (texts.length < 10_000) texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  const megabytes = texts.reduce((sum, t) => sum + t.length, 0) / 1e6;
  const rows = [
    `engines over ${texts.length} files (${megabytes.toFixed(1)} MB), one test per file, median of ${RUNS}:`,
  ];
  for (const c of [
    ...CASES,
    { name: 'catastrophic for backtracking', pattern: '(a|aa)+$', caseSensitive: true, grep: [] },
  ]) {
    const js = RE2JS.compile(
      c.pattern,
      RE2JS.MULTILINE | (c.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE),
    );
    const wasm = new RE2(c.pattern, c.caseSensitive ? 'mu' : 'miu');
    const time = (test: (text: string) => boolean): number =>
      median(
        Array.from({ length: RUNS }, () => {
          const start = performance.now();
          for (const text of texts) test(text);
          return performance.now() - start;
        }),
      );
    const jsMs = time((t) => js.test(t));
    const wasmMs = time((t) => wasm.test(t));
    rows.push(
      `  ${c.name.padEnd(32)} re2js ${jsMs.toFixed(0).padStart(5)} ms   re2-wasm ${wasmMs.toFixed(0).padStart(5)} ms`,
    );
  }
  const modules = join(__dirname, '..', 'node_modules');
  rows.push(
    `size on disk: re2js ${(sizeOnDisk(join(modules, 're2js')) / 1024).toFixed(0)} KiB, ` +
      `re2-wasm ${(sizeOnDisk(join(modules, 're2-wasm')) / 1024).toFixed(0)} KiB`,
  );
  return rows;
}

async function main(): Promise<void> {
  const root = join(tmpdir(), 'tandem-bench-search');
  const bytes = makeCorpus(root, FILES);
  console.log(
    `corpus: ${FILES.toLocaleString('en-US')} files, ${(bytes / 1e6).toFixed(1)} MB in ${root}`,
  );
  grepRun(root, CASES[0] as Case); // warm the page cache
  const cold = await toolRun(root, CASES[0] as Case);
  console.log(`first search (starts the worker): ${cold.ms.toFixed(0)} ms`);
  console.log(
    `median of ${RUNS} runs each, alternating; wall ms (CPU ms); search uses ${MAX_SCAN_THREADS} thread(s):`,
  );
  const cell = (runs: readonly Timing[]): string =>
    `${median(runs.map((r) => r.ms))
      .toFixed(0)
      .padStart(5)} (${median(runs.map((r) => r.cpu))
      .toFixed(0)
      .padStart(5)})`;
  for (const c of CASES) {
    const grep: Timing[] = [];
    const tool: Timing[] = [];
    const single: Timing[] = [];
    let counts = '';
    for (let run = 0; run < RUNS; run += 1) {
      const g = grepRun(root, c);
      const t = await toolRun(root, c);
      single.push(await toolRun(root, c, 1));
      grep.push(g);
      tool.push(t);
      const agree =
        String(g.count) === t.count || (t.count.endsWith('+') && g.count >= parseInt(t.count));
      counts = `${g.count} / ${t.count} matches${agree ? '' : '  (DIFFER)'}`;
    }
    const ratio = median(tool.map((r) => r.ms)) / median(grep.map((r) => r.ms));
    console.log(
      `  ${c.name.padEnd(26)} grep -r ${cell(grep)}   search ${cell(tool)}   ${ratio.toFixed(2)}x   1 thread ${cell(single)}   ${counts}`,
    );
  }
  for (const row of engines(root)) console.log(row);
  rmSync(root, { recursive: true, force: true });
}

void main();
