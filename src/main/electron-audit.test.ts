// Issue 10, "Electron audit": @doyensec/electronegativity over src/, offline, in its own process
// (scripts/electron-audit.ts). Every finding above informational must be explained by a reviewed
// entry of .electronegativity-allowlist.json; an entry nothing needs any more fails too.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadAllowlist,
  matches,
  type AuditReport,
  type Finding,
} from '../../scripts/electron-audit';

const ROOT = resolve(__dirname, '../..');

function audit(): Promise<{ code: number; report: AuditReport }> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/electron-audit.ts', '--json'],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        try {
          const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
          resolvePromise({ code, report: JSON.parse(stdout) as AuditReport });
        } catch (parseError) {
          reject(error ?? parseError);
        }
      },
    );
  });
}

describe('the Electron audit', () => {
  it('finds nothing above informational that the allowlist does not explain', async () => {
    const { code, report } = await audit();
    expect(report.errors).toEqual([]);
    // It did look: the window's setup has findings that need a reviewed reason.
    expect(report.findings.length).toBeGreaterThan(0);
    expect(
      report.unexplained.map((f) => `${f.severity} ${f.check} ${f.file}:${f.line} ${f.sample}`),
    ).toEqual([]);
    expect(report.unused).toEqual([]);
    expect(code).toBe(0);
    // What was fixed rather than explained stays fixed.
    expect(report.findings.map((f) => f.check)).not.toContain('AUXCLICK_JS_CHECK');
    expect(report.electronVersion).toMatch(/^\d+\.\d+\.\d+$/);
  }, 150_000);
});

describe('allowlist entries', () => {
  const finding = (over: Partial<Finding>): Finding => ({
    check: 'OPEN_EXTERNAL_JS_CHECK',
    severity: 'MEDIUM',
    confidence: 'TENTATIVE',
    file: 'main/index.ts',
    line: 1,
    sample: 'void shell.openExternal(url);',
    description: 'Review the use of openExternal',
    ...over,
  });
  const entry = {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'main/index.ts',
    sample: 'shell.openExternal(url)',
    reason: 'x',
  };

  it('explain one check, in one file, with the sample they name', () => {
    expect(matches(entry, finding({}))).toBe(true);
    expect(matches(entry, finding({ file: 'main/other.ts' }))).toBe(false);
    expect(matches(entry, finding({ check: 'PRELOAD_JS_CHECK' }))).toBe(false);
    expect(matches(entry, finding({ sample: 'shell.openExternal(userInput)' }))).toBe(false);
    // Without a sample, only a finding without one.
    const bare = { check: 'CSP_GLOBAL_CHECK', file: 'main/index.ts', reason: 'x' };
    expect(matches(bare, finding({ check: 'CSP_GLOBAL_CHECK', sample: '' }))).toBe(true);
    expect(matches(bare, finding({ check: 'CSP_GLOBAL_CHECK', sample: 'default-src *' }))).toBe(
      false,
    );
  });

  it('each carry a reason, and a malformed file is an error, not an empty list', async () => {
    const entries = loadAllowlist();
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e.reason.length).toBeGreaterThan(40);
    const dir = await mkdtemp(join(tmpdir(), 'tandem-allowlist-'));
    try {
      const file = join(dir, 'a.json');
      await writeFile(file, JSON.stringify({ entries: [{ check: 'X', file: 'y', reason: 'ok' }] }));
      expect(() => loadAllowlist(file)).toThrow(/needs a reason/);
      await writeFile(file, '[]');
      expect(() => loadAllowlist(file)).toThrow(/expected \{ "entries"/);
      expect(
        JSON.parse(await readFile(join(ROOT, '.electronegativity-allowlist.json'), 'utf8')),
      ).toHaveProperty('entries');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
