// find_files' work, synchronous because it runs in the scan worker: walk the project and keep
// the paths a glob matches. FIFOs, sockets and devices are not listed (they are not files to
// read); symlinks are listed by name and never followed.
import picomatch from 'picomatch';
import { admitItem, newScanBounds, WHOLE, type ScanBounds, type ScanLimits } from './scan-bounds';
import { newWalkProblems, walkProject } from './walk-project';

export interface NameSearchJob {
  readonly kind: 'names';
  readonly folder: string;
  readonly start: string;
  /** Real paths the walk never enters (Tandem's own data folders). */
  readonly skip?: readonly string[];
  readonly pattern: string;
  readonly maxResults: number;
  readonly limits: ScanLimits;
}

export interface NameSearchReport {
  readonly kind: 'names';
  /** Sorted; folders end with `/`. */
  readonly found: string[];
  readonly leftOut: number;
  readonly bounds: ScanBounds;
}

export function searchNames(job: NameSearchJob): NameSearchReport {
  const matches = picomatch(job.pattern, { dot: true, basename: !job.pattern.includes('/') });
  const bounds = newScanBounds(newWalkProblems());
  const found: string[] = [];
  let leftOut = 0;
  let finished = true;
  for (const entry of walkProject(job.folder, job.start, bounds.walk, job.skip)) {
    if (entry.type === 'special') {
      bounds.special += 1;
      continue;
    }
    const admitted = admitItem(bounds, job.limits, WHOLE);
    if (admitted === 'stop') {
      finished = false;
      break;
    }
    if (admitted === 'count') continue;
    if (!matches(entry.relative)) continue;
    if (found.length >= job.maxResults) leftOut += 1;
    else found.push(entry.type === 'dir' ? `${entry.relative}/` : entry.relative);
  }
  bounds.walkFinished = finished;
  found.sort();
  return { kind: 'names', found, leftOut, bounds };
}
