// The Electron audit (issue 10): runs @doyensec/electronegativity over src/ and fails on any
// finding above informational that .electronegativity-allowlist.json does not explain.
//   npx tsx scripts/electron-audit.ts          a report; exit 1 when something is unexplained
//   npx tsx scripts/electron-audit.ts --json   the same as one JSON object (the test reads it)
// It runs offline: the check that downloads Electron's release list is left out (Electron's
// version is kept current like every other dependency), and the translation download it tries at
// start is answered "unavailable" here instead of going to the network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
export const ALLOWLIST_FILE = join(ROOT, '.electronegativity-allowlist.json');
/** Needs Electron's release list from the network. */
const OFFLINE_EXCLUDED = ['AvailableSecurityFixesGlobalCheck'];

export interface Finding {
  readonly check: string;
  readonly severity: 'INFORMATIONAL' | 'LOW' | 'MEDIUM' | 'HIGH';
  readonly confidence: string;
  readonly file: string;
  readonly line: number;
  readonly sample: string;
  readonly description: string;
}

export interface AllowlistEntry {
  readonly check: string;
  readonly file: string;
  /** Text the finding's sample must contain; absent for findings without a sample. */
  readonly sample?: string;
  readonly reason: string;
}

export interface AuditReport {
  readonly electronVersion: string;
  readonly findings: readonly Finding[];
  /** Files electronegativity could not parse: unaudited, so they fail the audit too. */
  readonly errors: readonly string[];
  readonly unexplained: readonly Finding[];
  /** Allowlist entries no finding needed: stale, to be removed. */
  readonly unused: readonly AllowlistEntry[];
}

interface RawIssue {
  id: string;
  severity: { name: Finding['severity'] };
  confidence: { name: string };
  file: string;
  location: { line: number };
  sample?: string;
  description: string;
}

const requireHere = createRequire(__filename);

/** Answers electronegativity's translation download with a failure, before it is loaded. */
function keepOffline(): void {
  const fromTool = createRequire(requireHere.resolve('@doyensec/electronegativity'));
  const gotPath = fromTool.resolve('got');
  const refuse = (): Promise<never> => Promise.reject(new Error('offline audit'));
  requireHere.cache[gotPath] = {
    id: gotPath,
    filename: gotPath,
    loaded: true,
    exports: Object.assign(refuse, { default: refuse }),
  } as unknown as NodeJS.Module;
}

export function matches(entry: AllowlistEntry, finding: Finding): boolean {
  return (
    entry.check === finding.check &&
    entry.file === finding.file &&
    (entry.sample === undefined ? finding.sample === '' : finding.sample.includes(entry.sample))
  );
}

export function loadAllowlist(file = ALLOWLIST_FILE): AllowlistEntry[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { entries?: unknown };
  if (!Array.isArray(raw.entries)) throw new Error(`${file}: expected { "entries": [...] }`);
  return raw.entries.map((entry: unknown, i) => {
    const e = entry as Partial<AllowlistEntry>;
    if (typeof e.check !== 'string' || typeof e.file !== 'string') {
      throw new Error(`${file}: entry ${i} needs "check" and "file"`);
    }
    if (e.sample !== undefined && (typeof e.sample !== 'string' || e.sample === '')) {
      throw new Error(`${file}: entry ${i}: "sample" must be non-empty text when given`);
    }
    if (typeof e.reason !== 'string' || e.reason.trim().length < 40) {
      throw new Error(`${file}: entry ${i} (${e.check}) needs a reason of a sentence or more`);
    }
    return {
      check: e.check,
      file: e.file,
      reason: e.reason,
      ...(e.sample ? { sample: e.sample } : {}),
    };
  });
}

export async function runAudit(): Promise<AuditReport> {
  keepOffline();
  const run = requireHere('@doyensec/electronegativity') as (options: object) => Promise<{
    issues: RawIssue[];
    errors: { file?: string; message?: string }[];
  }>;
  const electronVersion = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  // The tool talks on console.log; stdout is kept for the report.
  const log = console.log;
  console.log = (...args: unknown[]) => console.error(...args);
  const result = await run({
    input: join(ROOT, 'src'),
    output: null,
    isSarif: false,
    customScan: [],
    excludeFromScan: OFFLINE_EXCLUDED,
    severitySet: null,
    confidenceSet: null,
    isRelative: true,
    isVerbose: false,
    electronVersionOverride: electronVersion,
  }).finally(() => {
    console.log = log;
  });
  const findings: Finding[] = result.issues.map((issue) => ({
    check: issue.id,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    file: issue.file,
    line: issue.location.line,
    sample: (issue.sample ?? '').trim(),
    description: issue.description,
  }));
  const allowlist = loadAllowlist();
  const serious = findings.filter((f) => f.severity !== 'INFORMATIONAL');
  return {
    electronVersion,
    findings,
    errors: result.errors.map((e) => `${e.file ?? '?'}: ${e.message ?? JSON.stringify(e)}`),
    unexplained: serious.filter((f) => !allowlist.some((entry) => matches(entry, f))),
    unused: allowlist.filter((entry) => !findings.some((f) => matches(entry, f))),
  };
}

function render(report: AuditReport): string {
  const lines = [
    `electronegativity over src/ (Electron ${report.electronVersion}): ${report.findings.length} finding(s)`,
  ];
  for (const f of report.unexplained) {
    lines.push(
      `UNEXPLAINED ${f.severity} ${f.check} ${f.file}:${f.line} ${f.sample} — ${f.description}`,
    );
  }
  for (const e of report.unused) lines.push(`STALE allowlist entry: ${e.check} ${e.file}`);
  for (const e of report.errors) lines.push(`NOT PARSED: ${e}`);
  const ok = report.unexplained.length + report.unused.length + report.errors.length === 0;
  lines.push(ok ? 'audit passed' : 'audit failed');
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  void runAudit().then((report) => {
    const failed = report.unexplained.length + report.unused.length + report.errors.length > 0;
    process.stdout.write(
      process.argv.includes('--json') ? `${JSON.stringify(report)}\n` : render(report),
    );
    process.exitCode = failed ? 1 : 0;
  });
}
