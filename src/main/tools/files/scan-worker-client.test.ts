// The scan runs off the main thread: a pattern that backtracks for minutes in V8 finishes, the
// event loop stays free meanwhile, stop terminates the worker threads, and a job past its hard
// limit is ended. Nothing here measures time: a timer only has to fire before the search ends.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError, type ToolContext, type ToolReturn } from '../tool';
import type { ContentSearchJob } from './content-search';
import { runContentSearch } from './parallel-search';
import { runInScanWorker, type WorkerEvent } from './scan-worker-client';
import { searchTool } from './search';

let folder = '';
/** 2,000 lines of 10,000 "a" and a "b": `(a|aa)+$` backtracks exponentially on each in V8. */
const EVIL_LINES = 2_000;

beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-scan-')));
  const line = `${'a'.repeat(10_000)}b\n`;
  await writeFile(join(folder, 'evil.txt'), line.repeat(EVIL_LINES));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function job(pattern: string): Omit<ContentSearchJob, 'shard'> {
  return {
    kind: 'content',
    folder,
    start: folder,
    startRelative: '.',
    startIsFile: false,
    pattern,
    literal: false,
    caseSensitive: true,
    maxResults: 100,
    countLimit: 10_000,
    limits: { maxItems: 100_000, maxCounted: 1_000_000, deadline: Date.now() + 120_000 },
  };
}

/** Resolves when the thread exits; events before the wait started are remembered. */
function exitWatcher(): {
  onWorkerEvent: (event: WorkerEvent) => void;
  exited: (id: number) => Promise<number>;
} {
  const codes = new Map<number, number>();
  const waiting = new Map<number, (code: number) => void>();
  return {
    onWorkerEvent: (event) => {
      if (event.type !== 'exit') return;
      codes.set(event.threadId, event.code);
      waiting.get(event.threadId)?.(event.code);
    },
    exited: (id) =>
      codes.has(id)
        ? Promise.resolve(codes.get(id) as number)
        : new Promise((resolve) => waiting.set(id, resolve)),
  };
}

describe('scan worker', () => {
  it('finishes the catastrophic pattern while the main event loop stays free', async () => {
    const ctx: ToolContext = {
      folder,
      sessionId: 's',
      callId: 'c',
      signal: new AbortController().signal,
      onOutput: () => undefined,
      services: {},
    };
    const result: string | ToolReturn = await searchTool.execute(
      { pattern: '(a|aa)+$' } as never,
      ctx,
    );
    expect(result).toBe('No matches for "(a|aa)+$" in ..');

    // A timer set when the job starts in the worker fires before the job's report arrives: the
    // main loop is free while the worker matches. (On the main thread, one regex test of one
    // such line would hold the loop for minutes.)
    const order: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    const report = await runContentSearch(job('(a|aa)+$'), {
      signal: new AbortController().signal,
      hardTimeoutMs: 120_000,
      threads: 1,
      onWorkerEvent: (event) => {
        if (event.type === 'job-started') timer = setTimeout(() => order.push('timer'), 10);
      },
    });
    order.push('search');
    clearTimeout(timer);
    expect(report.matches).toEqual([]);
    expect(order).toEqual(['timer', 'search']);
  });

  it('stop terminates every thread of a running search', async () => {
    const controller = new AbortController();
    const watcher = exitWatcher();
    const started: number[] = [];
    const search = runContentSearch(job('(a|aa)+$'), {
      signal: controller.signal,
      hardTimeoutMs: 120_000,
      threads: 2,
      onWorkerEvent: (event) => {
        watcher.onWorkerEvent(event);
        if (event.type !== 'job-started') return;
        started.push(event.threadId);
        controller.abort(new Error('stopped by the person'));
      },
    });
    await expect(search).rejects.toThrow('stopped by the person');
    expect(started.length).toBeGreaterThan(0);
    // terminate() ends a thread with exit code 1.
    for (const id of started) expect(await watcher.exited(id)).toBe(1);
  });

  it('ends a job that outlives its hard limit', async () => {
    const watcher = exitWatcher();
    let thread = -1;
    const search = runInScanWorker(
      { ...job('(a|aa)+$'), shard: { index: 0, count: 1 } },
      {
        signal: new AbortController().signal,
        hardTimeoutMs: 1,
        onWorkerEvent: (event) => {
          watcher.onWorkerEvent(event);
          if (event.type === 'spawned' || event.type === 'job-started') thread = event.threadId;
        },
      },
    );
    await expect(search).rejects.toThrow(ToolError);
    await expect(search).rejects.toThrow('the scan did not finish within 1 ms and was stopped');
    expect(thread).not.toBe(-1);
    // Ended, possibly before it finished starting (then the exit code is 0).
    expect(await watcher.exited(thread)).toBeTypeOf('number');
  });

  it('reuses a finished worker instead of starting a thread per search', async () => {
    const events: WorkerEvent[] = [];
    const options = {
      signal: new AbortController().signal,
      hardTimeoutMs: 120_000,
      onWorkerEvent: (event: WorkerEvent) => events.push(event),
    };
    const tiny = { ...job('b$'), maxResults: 1, shard: { index: 0, count: 1 } };
    await runInScanWorker(tiny, options);
    events.length = 0;
    const report = await runInScanWorker(tiny, options);
    expect(report.matches).toEqual([
      { path: 'evil.txt', line: 1, order: 0, text: expect.stringMatching(/b$/) },
    ]);
    expect(events.map((event) => event.type)).toEqual(['job-started']);
  });

  it('refuses an aborted signal without starting anything', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already stopped'));
    const events: WorkerEvent[] = [];
    await expect(
      runInScanWorker(
        { ...job('x'), shard: { index: 0, count: 1 } },
        { signal: controller.signal, hardTimeoutMs: 1_000, onWorkerEvent: (e) => events.push(e) },
      ),
    ).rejects.toThrow('already stopped');
    expect(events).toEqual([]);
  });
});
