import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../shared/tool-types';
import {
  JsonFilePermissionsStore,
  DEFAULT_PERMISSIONS,
  withRule,
} from '../main/permissions/project-permissions-store';
import { policyCommand } from './policy-command';

const SANDBOXED: SandboxState = { kind: 'bwrap', available: true, description: 'bwrap' };
const here = fileURLToPath(new URL('.', import.meta.url));
const repo = resolve(here, '..', '..');

let root: string;
let folder: string;
let dataDir: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-policy-cli-')));
  folder = join(root, 'proj');
  dataDir = join(root, 'data');
  await mkdir(folder);
  await writeFile(join(folder, 'a.txt'), 'a');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await policyCommand(
    argv,
    { stdout: (t) => (out += t), stderr: (t) => (err += t) },
    { env: { TANDEM_HOME: dataDir }, sandbox: async () => SANDBOXED },
  );
  return { code, out, err };
}

describe('tandem policy', () => {
  it.each([
    { what: 'no flags', argv: [], error: /--folder is required/ },
    {
      what: 'both targets',
      argv: ['--folder', '.', '--command', 'ls', '--path', 'a'],
      error: /exactly one of --command or --path/,
    },
    { what: 'no target', argv: ['--folder', '.'], error: /exactly one/ },
    {
      what: 'path without access',
      argv: ['--folder', '.', '--path', 'a'],
      error: /--access read or --access write/,
    },
    {
      what: 'bad access',
      argv: ['--folder', '.', '--path', 'a', '--access', 'exec'],
      error: /--access read or --access write/,
    },
    {
      what: 'access with command',
      argv: ['--folder', '.', '--command', 'ls', '--access', 'read'],
      error: /--access goes with --path/,
    },
    {
      what: 'unknown mode',
      argv: ['--folder', '.', '--command', 'ls', '--mode', 'yolo'],
      error: /unknown mode yolo/,
    },
    {
      what: 'unknown flag',
      argv: ['--folder', '.', '--command', 'ls', '--force'],
      error: /Unknown option '--force'/,
    },
    {
      what: 'missing folder',
      argv: ['--folder', '/no/such/dir', '--command', 'ls'],
      error: /does not exist/,
    },
  ])('bad flags ($what) exit 2 with usage', async ({ argv, error }) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(error);
    expect(r.err).toContain('usage: tandem policy');
    expect(r.out).toBe('');
  });

  it.each([
    { argv: ['--command', 'git status && ls'], decision: 'run' },
    { argv: ['--command', 'npm test; rm -rf ~'], decision: 'ask' },
    { argv: ['--command', 'npm test', '--mode', 'read-only'], decision: 'refuse' },
    { argv: ['--path', 'a.txt', '--access', 'read'], decision: 'run' },
    { argv: ['--path', '../data/x', '--access', 'read'], decision: 'refuse' },
    { argv: ['--path', 'new.txt', '--access', 'write', '--mode', 'auto-edit'], decision: 'run' },
  ])('--json $argv → $decision, exit 0', async ({ argv, decision }) => {
    const r = await run(['--folder', folder, ...argv, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { decision: string; reasons: string[] };
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(report.decision).toBe(decision);
    expect(report.reasons.length).toBeGreaterThan(0);
  });

  it('shows the parts, the resolved path and the stored rules it uses', async () => {
    const store = new JsonFilePermissionsStore(dataDir);
    await store.save(
      folder,
      withRule(DEFAULT_PERMISSIONS, { kind: 'command', argv: ['npm', 'test'], match: 'exact' }, 1),
    );
    const ruled = JSON.parse(
      (await run(['--folder', folder, '--command', 'npm test; rm -rf ~', '--json'])).out,
    );
    expect(ruled.parts.map((p: { argv: string[] }) => p.argv)).toEqual([
      ['npm', 'test'],
      ['rm', '-rf', '~'],
    ]);
    expect(ruled.decision).toBe('ask');
    expect(
      JSON.parse((await run(['--folder', folder, '--command', 'npm test', '--json'])).out),
    ).toMatchObject({
      decision: 'run',
      provenance: "this project's rule for `npm test` exactly",
    });
    const path = JSON.parse(
      (await run(['--folder', folder, '--path', 'sub/../a.txt', '--access', 'write', '--json']))
        .out,
    );
    expect(path.resolvedPath).toBe(join(folder, 'a.txt'));
    const text = await run(['--folder', folder, '--command', 'npm test && make']);
    expect(text.out).toMatch(/^decision: ask\n/);
    expect(text.out).toContain('not read-only  make');
    expect(text.out).not.toContain('runs because');
    await rm(store.fileFor(folder));
  });

  it('--help prints the usage and exits 0; a relative --folder resolves against cwd', async () => {
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, err: '' });
    expect(help.out).toContain('usage: tandem policy');
    let out = '';
    const code = await policyCommand(
      ['--folder', 'proj', '--path', 'a.txt', '--access', 'read', '--json'],
      { stdout: (t) => (out += t), stderr: () => {} },
      { env: { TANDEM_HOME: dataDir }, cwd: root, sandbox: async () => SANDBOXED },
    );
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ decision: 'run', resolvedPath: join(folder, 'a.txt') });
  });

  it('a corrupt permissions file is reported, not reset', async () => {
    const store = new JsonFilePermissionsStore(dataDir);
    await mkdir(join(store.fileFor(folder), '..'), { recursive: true });
    await writeFile(store.fileFor(folder), '{oops');
    const r = await run(['--folder', folder, '--command', 'ls']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/not valid JSON/);
    await rm(store.fileFor(folder));
  });

  it('runs as a child process (node --import tsx) and prints one JSON object', async () => {
    const entry = join(root, 'policy-entry.mts');
    await writeFile(
      entry,
      `import { policyCommand } from ${JSON.stringify(join(here, 'policy-command.ts'))};\n` +
        `process.exitCode = await policyCommand(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) });\n`,
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', entry, '--folder', folder, '--command', 'cat a.txt | wc -l', '--json'],
      { cwd: repo, env: { ...process.env, TANDEM_HOME: dataDir } },
    );
    expect(JSON.parse(stdout)).toMatchObject({
      decision: 'run',
      reasons: ['every part is a read-only command'],
    });
  });
});
