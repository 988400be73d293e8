// Entry of the scan worker thread (built to out/main/scan-worker.js): runs jobs posted to it, one
// at a time, and posts each report back. Everything slow or unbounded about reading the project
// happens here, so the main thread's event loop never waits on it.
import { parentPort } from 'node:worker_threads';
import { runScanJob, type ScanJob, type ScanMessage } from './scan-jobs';

function run(job: ScanJob): ScanMessage {
  try {
    return { type: 'done', report: runScanJob(job) };
  } catch (error) {
    return { type: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

const port = parentPort;
port?.on('message', (job: ScanJob) => {
  port.postMessage({ type: 'started' } satisfies ScanMessage);
  port.postMessage(run(job));
});
