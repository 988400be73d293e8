// The jobs the scan worker runs (content search, name search, a window into a big file), as
// plain data that crosses the thread boundary by structured clone, and the one dispatcher.
import { searchContent, type ContentSearchJob, type ContentSearchReport } from './content-search';
import { readLineWindow, type LineWindowJob, type LineWindowReport } from './line-window';
import { searchNames, type NameSearchJob, type NameSearchReport } from './name-search';

export type ScanJob = ContentSearchJob | NameSearchJob | LineWindowJob;
export type ScanReport = ContentSearchReport | NameSearchReport | LineWindowReport;

/** The report type that answers a job of type `J`. */
export type ReportFor<J extends ScanJob> = Extract<ScanReport, { kind: J['kind'] }>;

/** What the worker posts back: that it took the job, then the report or the job's error. */
export type ScanMessage =
  | { readonly type: 'started' }
  | { readonly type: 'done'; readonly report: ScanReport }
  | { readonly type: 'failed'; readonly message: string };

export function runScanJob(job: ScanJob): ScanReport {
  switch (job.kind) {
    case 'content':
      return searchContent(job);
    case 'names':
      return searchNames(job);
    case 'window':
      return readLineWindow(job);
  }
}
