// Shell (pty) benchmark: throughput of 100 MB through the capture next to a raw node-pty read of
// the same command, and spawn latency of a trivial command with and without bubblewrap.
// Run: npx tsx bench/pty.bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as pty from 'node-pty';
import { commandEnv } from '../src/main/shell/command-env';
import { runInPty } from '../src/main/shell/pty-session';
import { bwrapArgv } from '../src/main/shell/sandbox-launcher';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { median, p95 } from './percentiles';

const PRINT_100MB = `head -c 100000000 /dev/zero | tr '\\0' a | fold -w 99`;
const THROUGHPUT_RUNS = 3;
const LATENCY_RUNS = 30;

function rawPtyRead(command: string, folder: string): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0;
    const term = pty.spawn('/bin/bash', ['-c', command], {
      cols: 120,
      rows: 30,
      cwd: folder,
      env: commandEnv(process.env),
    });
    term.onData((chunk) => {
      bytes += Buffer.byteLength(chunk);
    });
    term.onExit(() => resolve(bytes));
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

async function main(): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-pty-'));
  const sandbox = await probeSandbox();
  const rows: string[] = [];
  try {
    const captured: number[] = [];
    const raw: number[] = [];
    let capturedTextBytes = 0;
    for (let run = 0; run < THROUGHPUT_RUNS; run++) {
      const r = await timed(() => rawPtyRead(PRINT_100MB, folder));
      raw.push(r.value / 1e6 / (r.ms / 1000));
      const c = await timed(() =>
        runInPty({ command: PRINT_100MB, folder, timeoutMs: 120_000, onData: () => {} }),
      );
      captured.push(c.value.totalBytes / 1e6 / (c.ms / 1000));
      capturedTextBytes = Buffer.byteLength(c.value.text);
    }
    rows.push(
      `| raw node-pty read, 100 MB | ${median(raw).toFixed(0)} MB/s (median of ${THROUGHPUT_RUNS}) |`,
    );
    rows.push(
      `| runInPty + OutputCapture, 100 MB | ${median(captured).toFixed(0)} MB/s (median of ${THROUGHPUT_RUNS}); model text ${capturedTextBytes} bytes |`,
    );

    for (const sandboxed of [false, true]) {
      if (sandboxed && sandbox.kind !== 'bwrap') {
        rows.push(`| spawn \`true\`, bwrap | not measured: ${sandbox.description} |`);
        continue;
      }
      // A read-only command's plan: what an auto-approved `true` gets.
      const plan = {
        folder,
        home: os.homedir(),
        allowNetwork: false,
        access: { kind: 'read-only' } as const,
      };
      const times: number[] = [];
      for (let run = 0; run < LATENCY_RUNS; run++) {
        const t = await timed(() =>
          runInPty({
            command: 'true',
            folder,
            timeoutMs: 10_000,
            wrap: sandboxed ? (argv) => bwrapArgv(plan, argv) : undefined,
            // As the shell tool runs it: bwrap's pid namespace ends what the command left.
            contained: sandboxed,
          }),
        );
        times.push(t.ms);
      }
      rows.push(
        `| spawn \`true\`, ${sandboxed ? 'bwrap' : 'no sandbox'} | median ${median(times).toFixed(1)} ms, p95 ${p95(times).toFixed(1)} ms (${LATENCY_RUNS} runs) |`,
      );
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  console.log(
    `Command: \`${PRINT_100MB}\`; ${os.cpus().length} cores, Node ${process.version}, ${os.platform()} ${os.release()}\n`,
  );
  console.log('| measure | result |\n| --- | --- |');
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
