// Runs scan jobs in worker threads and waits for the reports. The main event loop only waits for
// a message; stop or timeout (the tool's signal) terminates the job's thread at once, which ends
// even a job stuck in a system call, and a job that outlives its hard limit is terminated too.
// Finished workers are kept for a while (unreferenced, so they never hold the process open)
// because starting a thread costs more than most searches. Concurrent jobs get their own threads.
// From source (vitest, tsx) the worker is the .ts file run through tsx; in the build it is
// out/main/scan-worker.js, an entry of the main build beside every main chunk.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ToolError } from '../tool';
import type { ReportFor, ScanJob, ScanMessage } from './scan-jobs';
import { durationText } from '../../../shared/duration-text';

export type WorkerEvent =
  | { readonly type: 'spawned'; readonly threadId: number }
  | { readonly type: 'job-started'; readonly threadId: number }
  | { readonly type: 'exit'; readonly threadId: number; readonly code: number };

export interface ScanRunOptions {
  /** Aborted on stop or timeout: the worker is terminated and the promise rejects. */
  readonly signal: AbortSignal;
  /** The job has its own deadline; this is the backstop if it does not report by then. */
  readonly hardTimeoutMs: number;
  /** The worker's lifecycle, for tests and diagnostics. */
  readonly onWorkerEvent?: (event: WorkerEvent) => void;
}

/** A scan job must not take the app down: its heap is capped apart from the main one. */
const WORKER_HEAP_MB = 512;
/** How long a finished worker waits for the next job before it is ended. */
const IDLE_MS = 60_000;
/** Spare workers kept: enough for one sharded search. */
export const MAX_SCAN_THREADS = Math.max(1, Math.min(4, availableParallelism()));

const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];

export function runInScanWorker<J extends ScanJob>(
  job: J,
  options: ScanRunOptions,
): Promise<ReportFor<J>> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  const worker = takeWorker(options);
  const threadId = worker.threadId;
  worker.ref(); // A running job keeps the process alive (the CLI waits for its answer).
  return new Promise<ReportFor<J>>((resolve, reject) => {
    let settled = false;
    const finish = (reusable: boolean, outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reusable) keepIdle(worker);
      else void worker.terminate();
      outcome();
    };
    const onAbort = (): void => finish(false, () => reject(abortReason(signal)));
    const timer = setTimeout(() => {
      const limit = durationText(options.hardTimeoutMs);
      finish(false, () =>
        reject(new ToolError(`the scan did not finish within ${limit} and was stopped`)),
      );
    }, options.hardTimeoutMs);
    const onMessage = (message: ScanMessage): void => {
      switch (message.type) {
        case 'started':
          options.onWorkerEvent?.({ type: 'job-started', threadId });
          return;
        case 'done':
          finish(true, () => resolve(message.report as ReportFor<J>));
          return;
        case 'failed':
          finish(true, () => reject(new Error(message.message)));
          return;
      }
    };
    const onError = (error: Error): void => finish(false, () => reject(error));
    const onExit = (code: number): void =>
      finish(false, () =>
        reject(new Error(`the scan worker stopped unexpectedly (exit code ${code})`)),
      );
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
}

function takeWorker(options: ScanRunOptions): Worker {
  const spare = idle.pop();
  if (spare) {
    const { worker, timer } = spare;
    clearTimeout(timer);
    worker.removeAllListeners('exit');
    reportExit(worker, options);
    return worker;
  }
  const launch = workerLaunch();
  const worker = new Worker(launch.file, {
    execArgv: launch.execArgv,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  options.onWorkerEvent?.({ type: 'spawned', threadId: worker.threadId });
  reportExit(worker, options);
  return worker;
}

function reportExit(worker: Worker, options: ScanRunOptions): void {
  const threadId = worker.threadId; // reads -1 once the thread is gone
  worker.once('exit', (code) => options.onWorkerEvent?.({ type: 'exit', threadId, code }));
}

function keepIdle(worker: Worker): void {
  worker.unref();
  if (idle.length >= MAX_SCAN_THREADS) {
    void worker.terminate();
    return;
  }
  const forget = (): void => {
    const at = idle.findIndex((entry) => entry.worker === worker);
    if (at !== -1) clearTimeout(idle.splice(at, 1)[0]?.timer);
  };
  const timer = setTimeout(() => {
    forget();
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  worker.once('exit', forget); // A spare that dies on its own is simply forgotten.
  idle.push({ worker, timer });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('cancelled');
}

function workerLaunch(): { file: string; execArgv: string[] } {
  const self = moduleFile();
  if (self.endsWith('.ts')) {
    // Running from source: the worker is TypeScript too, loaded through tsx (a dev dependency).
    const tsx = createRequire(self).resolve('tsx/cjs');
    return { file: join(dirname(self), 'scan-worker.ts'), execArgv: ['--require', tsx] };
  }
  return { file: join(dirname(self), 'scan-worker.js'), execArgv: [] };
}

/** This module's file: import.meta.url in ESM and vitest; CommonJS bundles rewrite it too. */
function moduleFile(): string {
  const url: unknown = import.meta.url;
  if (typeof url === 'string' && url.startsWith('file:')) return fileURLToPath(url);
  return __filename;
}
