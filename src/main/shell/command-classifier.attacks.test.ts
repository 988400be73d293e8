// The attacks that once got past the classifier (issue 9), each as a table row, and at least a
// hundred generated variants of each class: every one must ask. Where bash and the parser read a
// command differently, a check runs it in bash first to show the hazard is real (so the test
// cannot pass vacuously), with `touch` standing in for the payload.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, suiteSeed, type Random } from '../../test-support/seeded-random';
import { classifyCommand } from './command-classifier';

const SEED = suiteSeed(0x7a9d3);
const VARIANTS = 120;
let folder: string;

beforeAll(async () => {
  folder = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-attacks-')));
  await writeFile(path.join(folder, 'a.txt'), 'a\n');
  await writeFile(path.join(folder, 'script.sh'), 'touch ran-script\n');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function expectAsks(command: string, fragment?: string): Promise<void> {
  const verdict = await classifyCommand(command, folder);
  expect(verdict.safe, `${JSON.stringify(command)} ran without asking (seed ${SEED})`).toBe(false);
  if (fragment) expect(verdict.reasons.join('\n'), JSON.stringify(command)).toContain(fragment);
}

/** Runs `command` in bash in a fresh folder and says whether it created `marker`. */
function bashCreates(command: string, marker: string): boolean {
  const dir = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
  try {
    execFileSync('bash', ['-c', command], { cwd: dir, stdio: 'ignore', timeout: 5000 });
  } catch {
    // a failing command may still have run the payload
  }
  const made = existsSync(path.join(dir, marker));
  execFileSync('rm', ['-rf', dir]);
  return made;
}

const ROWS: readonly (readonly [row: string, command: string, fragment: string])[] = [
  ['1', "cat <<true\ntru\\\ne\nsh -c 'id'\ntrue", 'here-document'],
  ['1 <<-', "cat <<-true\ntru\\\ne\nsh -c 'id'\ntrue", 'here-document'],
  ['1 E\\⏎⏎OF', "cat <<EOF\nE\\\n\nOF\nsh -c 'id'\nEOF", 'here-document'],
  ['2', "cat <<$'EOF'\nEOF\nsh -c 'id'\n$'EOF'", 'here-document'],
  ['2 $"…"', 'cat <<$"EOF"\nEOF\nsh -c \'id\'\n$"EOF"', 'here-document'],
  ['3', "echo x \\\r\nsh -c 'id'", 'control'],
  ['4', "echo 'a[$(id)]' >/dev/null; ((_)); ls", 'arithmetic'],
  ['4 $((_))', "echo 'a[$(id)]' >/dev/null; for x in $((_)); do ls; done", 'shell construct'],
  [
    '4 for ((…))',
    "echo 'a[$(id)]' >/dev/null; for ((i=_;i<1;i++)); do ls; done",
    'shell construct',
  ],
  ['4 $[_]', "echo 'a[$(id)]' >/dev/null; echo $[_]", 'arithmetic'],
  ['4 ${a[_]}', "echo 'a[$(id)]' >/dev/null; echo ${a[_]}", 'expands a variable'],
  ['5', 'ls && ((1)) > F', 'arithmetic'],
  ['5 |', 'ls | ((1)) > F', 'arithmetic'],
  ['5 { }', '{ ls; ((1)); } > F', 'group'],
  ['5 case', 'case x in x) ls;; esac > F', 'case'],
  ['6', "jq -n '$ ENV.SECRET_TOKEN'", 'environment'],
  ['6 comment', "jq -n '$#c\nENV.SECRET_TOKEN'", 'environment'],
  ['7 [!x]', 'cat [!x]nk', 'wildcard'],
  ['7 rg', 'rg . [!a]-pre=sh script.sh', 'wildcard'],
  ['7 [[.x.]]', 'cat [[.l.]]nk', 'wildcard'],
  ['7 [[=x=]]', 'cat [[=l=]]nk', 'wildcard'],
  ['also base64 -o', 'base64 -o out.bin a.txt', 'option'],
  ['also base64 --output', 'base64 --output=out.bin a.txt', 'option'],
  ['also rg -z', 'rg -z x', 'option'],
  ['also ;;', 'ls ;; pwd', 'syntax'],
  ['also here-doc', 'cat <<EOF\nplain\nEOF', 'here-document'],
  ['also here-string', 'cat <<< plain', 'here-string'],
  ['12', "rm -rf src '\u001b[30A\u001b[J$ ls'", 'control'],
];

describe('the attacks of issue 9', () => {
  it.each(ROWS)('row %s asks: %j', async (_row, command, fragment) => {
    await expectAsks(command, fragment);
  });

  it('are real: bash reads these differently from the parser and runs the payload', () => {
    const payload = 'touch PWNED';
    for (const command of [
      `cat <<true\ntru\\\ne\n${payload}\ntrue`,
      `cat <<$'EOF'\nEOF\n${payload}\n$'EOF'`,
      `echo 'a[$(${payload})]' >/dev/null; ((_)); ls`,
    ]) {
      expect(bashCreates(command, 'PWNED'), JSON.stringify(command)).toBe(true);
    }
  });

  it('asks for a path through a symlink whose real location cannot be resolved (row 10)', async () => {
    // Twelve 200-character folders: the path is longer than PATH_MAX, so realpath fails.
    let dir = folder;
    const names: string[] = [];
    for (let i = 0; i < 12; i++) {
      const name = `${String(i).padStart(2, '0')}${'d'.repeat(198)}`;
      names.push(name);
      dir = path.join(dir, name);
    }
    await mkdir(dir, { recursive: true });
    await symlink('/etc', path.join(dir, 's'));
    const rel = names.join('/');
    await expectAsks(`cd ${rel}/ && cat s/passwd`);
    await expectAsks(`cat ${rel}/s/passwd`);
  });
});

/** Splices `insert` into `text` at a random place. */
function splice(random: Random, text: string, insert: string): string {
  const at = random.int(text.length + 1);
  return text.slice(0, at) + insert + text.slice(at);
}

const SAFE_BASES = ['ls -la', 'cat a.txt', 'grep -rn x .', 'git status', 'echo hi', 'wc -l a.txt'];
const DELIMITERS = ['EOF', 'true', 'x', 'END', 'ls', 'a_b', '-', 'E O'];
const CONTROLS = [
  '\r',
  '\u0000',
  '\u0001',
  '\u0007',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u200b',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ufeff',
  '\u2028',
];

/** Each class: a generator of commands that must ask. */
const CLASSES: Readonly<Record<string, (random: Random) => string>> = {
  'here-documents with a split or quoted end marker': (random) => {
    const delim = random.pick(DELIMITERS);
    const cut = 1 + random.int(Math.max(1, delim.length - 1));
    const split = `${delim.slice(0, cut)}\\\n${delim.slice(cut)}`;
    const quoted = random.pick([
      delim,
      `'${delim}'`,
      `"${delim}"`,
      `$'${delim}'`,
      `$"${delim}"`,
      `\\${delim}`,
    ]);
    const dash = random.pick(['<<', '<<-']);
    const end = random.pick([delim, split, quoted]);
    return `${random.pick(['cat', 'wc -l', 'grep x'])} ${dash}${quoted}\n${end}\nsh -c 'id'\n${delim}`;
  },
  'control, CR and bidi characters anywhere': (random) =>
    splice(random, random.pick(SAFE_BASES), random.pick(CONTROLS)),
  'arithmetic in any form': (random) => {
    const expr = random.pick(['_', '1', 'a[$(id)]', 'x+1', '_=1']);
    const form = random.pick([
      `((${expr}))`,
      `echo $((${expr}))`,
      `echo $[${expr}]`,
      `echo \${a[${expr}]}`,
      `for ((i=${expr};i<1;i++)); do ls; done`,
      `case $((${expr})) in *) ls;; esac`,
      `if ((${expr})); then ls; fi`,
      `while ((${expr})); do break; done`,
      `let ${expr}`,
      `declare -i n=${expr}`,
    ]);
    return random.chance(0.5) ? `${random.pick(SAFE_BASES)}; ${form}` : `${form} && ls`;
  },
  'redirections that write, after any structure': (random) => {
    const op = random.pick(['>', '>>', '&>', '&>>', '>|', '2>', '>&', '<>', '1>']);
    // After `>&` a number moves a descriptor (harmless); any other word is a file.
    const targets = [
      'F',
      'out.txt',
      '-1',
      'a.txt',
      '.git/config',
      '"F"',
      ...(op === '>&' ? [] : ['5']),
    ];
    const target = random.pick(targets);
    const body = random.pick([
      'ls && ((1))',
      'ls | cat',
      '{ ls; }',
      '(ls)',
      'case x in x) ls;; esac',
      'ls',
      'echo hi',
      'git status',
    ]);
    return `${body} ${op} ${target}`;
  },
  'jq programs that read the environment': (random) => {
    const gap = random.pick(['', ' ', '\t', '  ', '#c\n', ' #x\n ']);
    const name = random.pick(['ENV', 'env']);
    const program = random.pick([
      `$${gap}${name}.SECRET`,
      `$${gap}${name}`,
      `${name}.HOME`,
      `[$${gap}${name}[]]`,
    ]);
    const quote = random.pick(["'", '"']);
    const body = quote === '"' ? program.replace(/\$/g, '\\$') : program;
    return `jq ${random.pick(['-n', '-r', '-c', ''])} ${quote}${body}${quote} ${random.pick(['', 'a.txt'])}`;
  },
  'bracket wildcards bash reads its own way': (random) => {
    const bracket = random.pick([
      '[!x]',
      '[^x]',
      '[[.l.]]',
      '[[=l=]]',
      '[[:alpha:]]',
      '[a-z]',
      '[]]',
      '[!]]',
    ]);
    const word = splice(random, random.pick(['link', 'a.txt', '-pre=sh', 'src']), bracket);
    return `${random.pick(['cat', 'ls', 'rg .', 'grep -r x', 'wc -l'])} ${word}`;
  },
  'variables, substitutions and special quoting': (random) => {
    const piece = random.pick([
      '$HOME',
      '${HOME}',
      '$(id)',
      '`id`',
      '<(id)',
      "$'a'",
      '$"a"',
      '$1',
      '$@',
      '${#a}',
    ]);
    // Braces and ~ expand only unquoted.
    const bare = random.pick(['~', '~root', '{a,b}', '{1..3}', 'x{a,b}', '~/x']);
    // Inside double quotes only $ and backquotes expand.
    const expandsQuoted =
      piece.startsWith('$') && !piece.startsWith("$'") && !piece.startsWith('$"');
    const quoted = random.chance(0.2)
      ? bare
      : (piece.startsWith('`') || expandsQuoted) && random.chance(0.3)
        ? `"${piece}"`
        : piece;
    const prefix = quoted.startsWith('~') || random.chance(0.5) ? '' : 'a';
    return `${random.pick(['cat', 'ls', 'echo', 'grep x'])} ${prefix}${quoted}`;
  },
  'shell constructs': (random) => {
    const base = random.pick(SAFE_BASES);
    const construct = random.pick([
      `if true; then ${base}; fi`,
      `for f in a; do ${base}; done`,
      `while false; do ${base}; done`,
      `until true; do ${base}; done`,
      `f() { ${base}; }`,
      `(${base})`,
      `{ ${base}; }`,
      `! ${base}`,
      `${base} &`,
      `X=1 ${base}`,
      `[ -f a.txt ]`,
      `[[ -f a.txt ]]`,
      `coproc ${base}`,
      `time ${base}`,
      `select x in a; do ${base}; done`,
      `case a in a) ${base};; esac`,
    ]);
    const other = random.pick(SAFE_BASES);
    const op = random.pick([';', '&&', '||', '|', '\n']);
    return random.chance(0.5) ? `${construct} ${op} ${other}` : `${other} ${op} ${construct}`;
  },
};

describe(`generated variants (seed ${SEED}; TANDEM_SEED replays one)`, () => {
  it.each(Object.keys(CLASSES))('%s: every variant asks', async (name) => {
    const random = seededRandom(SEED + name.length);
    const make = CLASSES[name];
    if (!make) throw new Error(name);
    const seen = new Set<string>();
    for (let i = 0; i < VARIANTS * 3 && seen.size < VARIANTS; i++) {
      const command = make(random);
      if (seen.has(command)) continue;
      seen.add(command);
      await expectAsks(command);
    }
    expect(seen.size).toBeGreaterThanOrEqual(100);
  });
});
