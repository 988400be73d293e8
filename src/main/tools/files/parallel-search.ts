// A content search split across worker threads: each walks the whole tree (cheap) and searches
// every n-th file, so the reading, which is most of the cost, runs on all cores. The reports are
// merged into what one worker would have said. Stop or timeout ends every thread.
import type { ContentSearchJob, ContentSearchReport } from './content-search';
import { mergeMatchSummaries } from './match-collector';
import { mergeBounds } from './scan-bounds';
import { MAX_SCAN_THREADS, runInScanWorker, type ScanRunOptions } from './scan-worker-client';

export interface ParallelSearchOptions extends ScanRunOptions {
  /** Threads to use (default: up to 4, one per core). */
  readonly threads?: number;
}

export async function runContentSearch(
  job: Omit<ContentSearchJob, 'shard'>,
  options: ParallelSearchOptions,
): Promise<ContentSearchReport> {
  // A single file gains nothing from splitting.
  const count = job.startIsFile ? 1 : (options.threads ?? MAX_SCAN_THREADS);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) onAbort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const reports = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        runInScanWorker(
          { ...job, shard: { index, count } },
          { ...options, signal: controller.signal },
        ).catch((error: unknown) => {
          controller.abort(error); // One failed: the others stop too.
          throw error;
        }),
      ),
    );
    return {
      kind: 'content',
      ...mergeMatchSummaries(reports, job.maxResults),
      bounds: mergeBounds(reports.map((report) => report.bounds)),
    };
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
}
