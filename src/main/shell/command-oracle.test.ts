// The execution oracle: every command the classifier lets run without asking — the safe rows of
// the table, everyday commands, and a seeded corpus of random command strings built from shell
// tokens — runs for real, as Tandem runs it (the command line rebuilt from its words, the clean
// environment, read-only git), under strace in bubblewrap, in a throw-away copy of a fixture
// project that is deliberately WRITABLE (so a hole in the classifier would show as a change rather
// than hit the sandbox's read-only wall). It asserts: every program that started is one the
// verdict listed, no file in the fixture changed, nothing outside the project was read.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, suiteSeed, type Random } from '../../test-support/seeded-random';
import { classifyCommand } from './command-classifier';
import { CLASSIFIER_CASES } from './command-classifier.cases';
import { cleanEnvironment, commandEnv } from './command-env';
import { repositoryDiffPrograms } from './repository-diff-programs';
import { shellArgv } from './pty-session';
import { bwrapArgv } from './sandbox-launcher';
import { probeSandbox } from './sandbox-probe';

const SEED = suiteSeed(0x5eed);
const GENERATED = 5000;
/** Commands actually run, at most; sampled from the auto-run ones when there are more. */
const MAX_RUNS = Number(process.env.TANDEM_ORACLE_RUNS ?? 120);
const state = await probeSandbox();
const hasStrace = spawnSync('strace', ['-V']).status === 0;

const EVERYDAY = [
  'ls -la',
  'cat a.txt b.txt',
  'grep -rn alpha src',
  'git status',
  'git diff',
  'git log --oneline -5',
  'head -50 a.txt | wc -l',
  "find . -name '*.ts'",
  'rg alpha',
];

let root: string;
let fixture: string;
let outside: string;
let canary: string;
/** The fixture's repositories set no diff programs; looked up once, as the shell tool would. */
let refusedKeys: string[] = [];

async function makeFixture(dir: string): Promise<void> {
  const files: Record<string, string> = {
    'a.txt': 'alpha\nbeta\n',
    'b.txt': 'beta\ngamma\n',
    'src/main.ts': 'export const alpha = 1;\n',
    'src/util.ts': 'export function beta() {}\n',
    'docs/readme.md': '# readme\n',
    'data.json': '{"name":"fixture","list":[1,2]}\n',
    'names.txt': 'b\na\nc\na\n',
    '-delete': 'a file named like an option\n',
    '--pre=sh': 'another\n',
    'script.sh': 'touch PWNED\n',
    '.hidden': 'hidden\n',
  };
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'fixture');
  await writeFile(path.join(dir, 'a.txt'), 'alpha\nbeta\nchanged\n'); // something for git diff
  await symlink(path.join(outside, 'secret.txt'), path.join(dir, 'link'));
  await symlink(outside, path.join(dir, 'outdir'));
}

/** Every entry under `dir`: kind, mode, size, content hash or link target. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      const stat = lstatSync(file);
      const key = path.relative(dir, file);
      if (stat.isSymbolicLink()) out.set(key, `link ${readlinkSync(file)}`);
      else if (stat.isDirectory()) {
        out.set(key, `dir ${stat.mode}`);
        walk(file);
      } else {
        const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
        out.set(key, `file ${stat.mode} ${stat.size} ${hash}`);
      }
    }
  };
  walk(dir);
  return out;
}

function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const diff: string[] = [];
  for (const [key, value] of before) if (after.get(key) !== value) diff.push(`changed: ${key}`);
  for (const key of after.keys()) if (!before.has(key)) diff.push(`created: ${key}`);
  return diff;
}

/** Words, operators and quoting, split on spaces; then the ones a space cannot carry. */
const TOKENS = [
  ...(
    'ls cat echo git grep rg find head wc sort uniq cut sed jq diff stat file tree du test printf ' +
    'cd pwd true base64 status log diff show config -la -n -r -l -c -delete -exec --pre=sh ' +
    '--output=x -o -i -e -name -f . .. / a.txt b.txt src link outdir outdir/secret.txt ' +
    '/etc/passwd ~ x alpha s/a/b/ p \' " $\' $" $ $( ) ` \\ ; && || | & |& ;; * ? [ [! ] *.ts ' +
    'src/* .* > >> < 2>&1 >/dev/null 2>/dev/null << <<< <( >( (( )) { } ( {a,b} if then fi for ' +
    'in do done case esac while function = X=1 # -- - HEAD .git/config names.txt data.json .name'
  ).split(' '),
  '\r',
  '\n',
  '\t',
  '"a b"',
  "'a b'",
];

function randomCommand(random: Random): string {
  const count = 1 + random.int(9);
  let out = '';
  for (let i = 0; i < count; i++) {
    out += random.pick(TOKENS);
    out += random.chance(0.8) ? ' ' : random.pick(['', '\t', '\n', '\\\n']);
  }
  return out.trim();
}

interface Finding {
  readonly command: string;
  readonly problems: readonly string[];
}

async function runJudged(
  command: string,
  canonical: string,
  programs: ReadonlySet<string>,
): Promise<Finding> {
  const work = path.join(root, `run-${Math.random().toString(36).slice(2)}`);
  const project = path.join(work, 'project');
  const traceDir = path.join(work, 'trace');
  await mkdir(traceDir, { recursive: true });
  await cp(fixture, project, { recursive: true, verbatimSymlinks: true });
  const before = snapshot(project);
  const outsideBefore = snapshot(outside);
  const env = commandEnv(cleanEnvironment(process.env, project), [], {
    kind: 'read-only',
    refusedKeys,
  });
  const trace = path.join(traceDir, 'trace');
  const inner = [
    'strace',
    '-f',
    '-qq',
    '-y',
    '-e',
    'trace=execve,open,openat,openat2,creat,stat,lstat,newfstatat,readlink,readlinkat',
    '-o',
    trace,
    ...shellArgv(canonical),
  ];
  // The project WRITABLE on purpose (see the top of the file); the trace folder bound too.
  const argv = bwrapArgv(
    {
      folder: project,
      home: os.homedir(),
      allowNetwork: false,
      access: { kind: 'read-write', git: 'protected' },
    },
    inner,
  );
  const at = argv.indexOf('--chdir');
  argv.splice(at, 0, '--bind', traceDir, traceDir);
  const result = spawnSync(argv[0] as string, argv.slice(1), {
    cwd: project,
    env,
    encoding: 'utf8',
    timeout: 15_000,
    input: '',
  });
  const problems: string[] = [];
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (output.includes(canary)) problems.push('printed the outside canary');
  let log = '';
  try {
    log = readFileSync(trace, 'utf8');
  } catch {
    problems.push(
      `no trace (exit ${result.status}, ${result.error?.message ?? output.slice(0, 200)})`,
    );
  }
  if (log.includes(outside)) {
    const line = log.split('\n').find((l) => l.includes(outside)) ?? '';
    problems.push(`touched a path outside the project: ${line.slice(0, 200)}`);
  }
  for (const match of log.matchAll(/execve\("([^"]+)", .*\) = 0/g)) {
    const program = path.basename(match[1] ?? '');
    if (program !== 'bash' && !programs.has(program)) problems.push(`started ${program}`);
  }
  problems.push(...changes(before, snapshot(project)));
  problems.push(...changes(outsideBefore, snapshot(outside)).map((c) => `outside ${c}`));
  await rm(work, { recursive: true, force: true });
  return { command, problems };
}

beforeAll(async () => {
  root = await mkdtemp('/var/tmp/tandem-oracle-');
  outside = path.join(root, 'outside');
  fixture = path.join(root, 'fixture');
  canary = `CANARY-${SEED}-${Math.random().toString(36).slice(2)}`;
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), `${canary}\n`);
  await mkdir(fixture);
  await makeFixture(fixture);
  refusedKeys = await repositoryDiffPrograms(fixture, process.env);
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe.runIf(state.kind === 'bwrap' && state.available && hasStrace)(
  `execution oracle (seed ${SEED}; TANDEM_SEED replays one)`,
  () => {
    it('runs only listed programs, changes nothing and reads nothing outside, for every auto-run command', async () => {
      const random = seededRandom(SEED);
      const corpus = [
        ...CLASSIFIER_CASES.filter(([, safe]) => safe).map(([command]) => command),
        ...EVERYDAY,
        ...Array.from({ length: GENERATED }, () => randomCommand(random)),
      ];
      const judged: { command: string; canonical: string; programs: Set<string> }[] = [];
      const seen = new Set<string>();
      for (const command of corpus) {
        if (seen.has(command)) continue;
        seen.add(command);
        const verdict = await classifyCommand(command, fixture);
        if (!verdict.safe) continue;
        expect(verdict.canonical, command).toBeDefined();
        const programs = new Set(verdict.parts.map((part) => part.argv[0] ?? ''));
        judged.push({ command, canonical: verdict.canonical ?? '', programs });
      }
      // The safe share of everyday commands must not collapse (issue 9: at least 80 %).
      const everyday = judged.filter((j) => EVERYDAY.includes(j.command)).length;
      expect(everyday / EVERYDAY.length).toBeGreaterThanOrEqual(0.8);
      // Everyday commands always run; the rest is sampled down to the bound, half from the table
      // and half from the generated corpus, so both kinds are always exercised.
      const generatedSet = new Set(corpus.slice(-GENERATED));
      const table = judged.filter(
        (j) => !generatedSet.has(j.command) && !EVERYDAY.includes(j.command),
      );
      const generated = judged.filter(
        (j) => generatedSet.has(j.command) && !EVERYDAY.includes(j.command),
      );
      const sample = <T>(items: T[], n: number): T[] => {
        const pool = [...items];
        const out: T[] = [];
        while (out.length < n && pool.length > 0)
          out.push(...pool.splice(random.int(pool.length), 1));
        return out;
      };
      const half = Math.floor((MAX_RUNS - EVERYDAY.length) / 2);
      const runs = [
        ...judged.filter((j) => EVERYDAY.includes(j.command)),
        ...sample(table, half),
        ...sample(generated, MAX_RUNS - EVERYDAY.length - half),
      ];
      expect(generated.length).toBeGreaterThan(20);
      console.log(
        `oracle: ${table.length} table and ${generated.length} generated commands judged read-only`,
      );
      const started = Date.now();
      const findings: Finding[] = [];
      for (let i = 0; i < runs.length; i += 2) {
        const batch = runs.slice(i, i + 2);
        findings.push(
          ...(await Promise.all(batch.map((j) => runJudged(j.command, j.canonical, j.programs)))),
        );
      }
      const bad = findings.filter((f) => f.problems.length > 0);
      expect(
        bad.map((f) => `${JSON.stringify(f.command)}: ${f.problems.join('; ')}`),
        `of ${findings.length} commands run (${judged.length} of ${seen.size} judged read-only)`,
      ).toEqual([]);
      console.log(
        `oracle: ${seen.size} distinct commands judged, ${judged.length} read-only (${everyday}/${EVERYDAY.length} everyday), ${findings.length} run in ${Date.now() - started} ms`,
      );
    }, 240_000);
  },
);

it.runIf(!(state.kind === 'bwrap' && state.available && hasStrace))(
  'execution oracle: skipped, it needs bubblewrap and strace (apt-get install bubblewrap strace)',
  () => {
    expect(state.kind === 'bwrap' && state.available && hasStrace).toBe(false);
  },
);
