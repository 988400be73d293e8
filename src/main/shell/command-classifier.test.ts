import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from './command-classifier';

const FOLDER = '/work/project';

type Case = readonly [command: string, safe: boolean, reasonFragments?: readonly string[]];

// [command, auto-approved?, fragments the reasons must contain]
const CASES: readonly Case[] = [
  // Plain read-only commands.
  ['ls', true],
  ['ls -la', true],
  ['ls -la src', true],
  ['ls src/main', true],
  ['ls ./src', true],
  ['ls .', true],
  ['cat README.md', true],
  ['cat -n src/a.ts', true],
  ['head -n 20 package.json', true],
  ['head -c 100 file.bin', true],
  ['tail -n 5 log.txt', true],
  ['tail -f log.txt', true],
  ['wc -l src/a.ts src/b.ts', true],
  ['grep -rn TODO src', true],
  ['grep -E "a|b" file.txt', true],
  ['grep -c foo file', true],
  ['egrep x y', true],
  ['fgrep x y', true],
  ['rg foo', true],
  ['rg -n --type ts "export function"', true],
  ['find . -name "*.ts"', true],
  ['find src -type f -newer package.json', true],
  ['find . -maxdepth 2 -print', true],
  ['sed -n 1,5p file', true],
  ['sed -n "10,20p" file', true],
  ["sed 's/a/b/' file", true],
  ["sed 's/a/b/g' file", true],
  ["sed -e 's|x|y|g' -e 's/1/2/' file", true],
  // Conservative: a regex address looks like an absolute path to the lexical check.
  ["sed '/start/,/end/p' file", false, ['reads outside the project folder']],
  ['sed 5q file', true],
  ['pwd', true],
  ['echo hello', true],
  ['echo "hello world"', true],
  ["echo 'single'", true],
  ['printf "%s\\n" a b', true],
  ['true', true],
  ['false', true],
  ['date', true],
  ['date +%Y', true],
  ['whoami', true],
  ['id', true],
  ['uname -a', true],
  ['hostname', true],
  ['which node', true],
  ['type ls', true],
  ['file src/a.ts', true],
  ['stat package.json', true],
  ['du -sh src', true],
  ['df -h', true],
  ['tree -L 2', true],
  ['sort names.txt', true],
  ['sort -rn counts.txt', true],
  ['uniq -c sorted.txt', true],
  ['cut -d, -f1 data.csv', true],
  ['tr a-z A-Z', true],
  ['nl file', true],
  ['diff a.txt b.txt', true],
  ['diff -u a b', true],
  ['cmp a b', true],
  ['comm -12 a b', true],
  ['basename src/a.ts', true],
  ['dirname src/a.ts', true],
  ['realpath src', true],
  ['readlink link', true],
  ['test -f package.json', true],
  ['[ -d src ]', true],
  ['tac file', true],
  ['column -t file', true],
  ['md5sum a', true],
  ['sha256sum a b', true],
  ['base64 file', true],
  ['od -c file', true],
  ['xxd file', true],
  ['strings bin', true],
  ['jq .name package.json', true],
  ['seq 1 10', true],
  ['sleep 1', true],
  // git, read-only.
  ['git status', true],
  ['git status --short', true],
  ['git log --oneline', true],
  ['git log -n 5 --stat', true],
  ['git diff', true],
  ['git diff --cached', true],
  ['git diff HEAD~1..HEAD', true],
  ['git show HEAD', true],
  ['git blame src/a.ts', true],
  ['git branch', true],
  ['git branch -a', true],
  ['git branch --list "feat*"', true],
  ['git branch -vv', true],
  ['git tag', true],
  ['git tag -l "v*"', true],
  ['git remote -v', true],
  ['git rev-parse HEAD', true],
  ['git ls-files', true],
  ['git stash list', true],
  ['git config --get user.name', true],
  ['git -C src status', true],
  ['git --no-pager log', true],
  ['git grep foo', true],
  // Sequences, pipes and groups of safe commands.
  ['ls | grep x', true],
  ['ls -la | head -5', true],
  ['cat a | sort | uniq -c | sort -rn | head', true],
  ['ls && pwd', true],
  ['ls || echo none', true],
  ['ls; pwd', true],
  ['(ls)', true],
  ['{ ls; pwd; }', true],
  ['(cd src 2>/dev/null; ls) | wc -l', true],
  ['cd src && ls', true],
  ['cd src/main && cat a.ts', true],
  // Conservative: a cd may fail, so ../ is also judged from the project root.
  ['cd src/main && cat ../a.ts', false, ['reads outside the project folder: ../a.ts']],
  ['cd src; cd lib; cat ../../b.txt', false, ['reads outside the project folder: ../../b.txt']],
  ['cd nowhere; cat ../x', false, ['reads outside the project folder: ../x']],
  ['(cd src); cat ../x', false, ['reads outside the project folder: ../x']],
  ['cd src | cat ../x', false, ['reads outside the project folder: ../x']],
  ['cd ..', false, ['changes to a folder outside the project: ..']],
  ['cd /etc && cat passwd', false, ['changes to a folder outside the project: /etc']],
  ['cd', false, ['changes folder in a way that cannot be checked']],
  ['cd -', false, ['changes folder in a way that cannot be checked']],
  ['cd ~', false, ['outside the project']],
  ['cd src && npm test', false, ['not a known read-only command: npm']],
  ['! grep -q x file', true],
  ['ls 2>/dev/null', true],
  ['ls > /dev/null 2>&1', true],
  ['ls 2>&1 | head', true],
  ['grep x file 1>&2', true],
  ['wc -l < file.txt', true],
  ['cat <<EOF\nplain text\nEOF', true],
  ["cat <<'EOF'\n$(not run)\nEOF", true],
  ['grep x <<< "a x b"', true],
  ['echo "a;b"', true],
  ['echo "a && rm b"', true],
  ["echo 'a | sh'", true],
  ['echo a\\;b', true],
  ['ls \\\n  -la \\\n  src', true],
  ['# only a comment\nls', true],
  ['ls *.ts', true],
  ['cat src/*.ts', true],
  ['grep foo *', true],
  // The tricky ones.
  ['ls; rm -rf x', false, ['not a known read-only command: rm']],
  ['cat $(rm x)', false, ['runs a nested command: $(rm x)', 'not a known read-only command: rm']],
  ['cat `rm x`', false, ['runs a nested command', 'rm']],
  ['echo hi > f', false, ['writes to a file: > f']],
  ['echo hi >> f', false, ['writes to a file: >> f']],
  ['ls &> out.txt', false, ['writes to a file: &> out.txt']],
  ['ls >| f', false, ['writes to a file']],
  ['{ ls; } > f', false, ['writes to a file: > f']],
  ['cat <<EOF > out\nx\nEOF', false, ['writes to a file: > out']],
  ['cat <(rm x)', false, ['runs a nested command: <(rm x)', 'rm']],
  ['diff <(ls a) <(ls b)', false, ['runs a nested command: <(ls a)']],
  ['find . -delete', false, ['find -delete']],
  ['find . -name x -exec rm {} \\;', false, ['find -exec']],
  ['find . -execdir ls \\;', false, ['find -execdir']],
  ['find . -ok rm {} \\;', false, ['find -ok']],
  ['find . -fprint out', false, ['find -fprint']],
  ['find *', false, ['wildcard']],
  ['sed -i s/a/b/ f', false, ['sed -i']],
  ['sed -ni s/a/b/p f', false, ['sed -ni']],
  ['sed --in-place s/a/b/ f', false, ['sed --in-place']],
  ['sed --in-pl s/a/b/ f', false, ['sed --in-pl']],
  ["sed 's/a/b/w out' f", false, ['sed script may write or run something']],
  ["sed 's/a/b/e' f", false, ['sed script']],
  ["sed '1e rm x' f", false, ['sed script']],
  ["sed 'r /etc/passwd' f", false, ['sed script']],
  ['sed -f script.sed f', false, ['sed script file']],
  ['git -c core.pager=sh log', false, ['git -c']],
  ['git -c alias.x=!sh x', false, ['git -c']],
  ['git --exec-path=/tmp log', false, ['git --exec-path']],
  ['git push', false, ['not a read-only subcommand: git push']],
  ['git commit -m x', false, ['git commit']],
  ['git checkout main', false, ['git checkout']],
  ['git reset --hard', false, ['git reset']],
  ['git branch -D x', false, ['git branch -D']],
  ['git branch -d x', false, ['git branch -d']],
  ['git branch newname', false, ['names a branch without --list: newname']],
  ['git branch -m a b', false, ['git branch -m']],
  ['git tag v1', false, ['names a tag without --list: v1']],
  ['git tag -d v1', false, ['git tag -d']],
  ['git remote add o url', false, ['git remote add']],
  ['git remote show origin', false, ['contacts remotes']],
  ['git stash', false, ['changes the stash']],
  ['git stash pop', false, ['changes the stash']],
  ['git config user.name x', false, ['changes git configuration']],
  ['git diff --output=patch.txt', false, ['git diff --output=patch.txt']],
  ['git log --ext-diff', false, ['git log --ext-diff']],
  ['git grep -O foo', false, ['git grep -O']],
  ['git -C .. status', false, ['reads outside the project folder: ..']],
  ['xargs rm', false, ['runs another command for each input: xargs rm']],
  ['ls | xargs cat', false, ['xargs cat']],
  ['env rm x', false, ['runs another command with a changed environment: env rm x']],
  ['env', false, ['env']],
  ["bash -c 'ls'", false, ['runs a shell: bash -c ls']],
  ["sh -c 'rm x'", false, ['runs a shell']],
  ['sudo ls', false, ['runs a command as another user: sudo ls']],
  ['nohup ls', false, ['nohup']],
  ['timeout 5 ls', false, ['timeout']],
  ['time ls', false, ['runs another command: time ls']],
  ['eval ls', false, ['evaluates text as a command']],
  ['exec ls', false, ['replaces the shell']],
  ['source env.sh', false, ['runs a script']],
  ['. ./env.sh', false, ['runs a script']],
  ['ls &', false, ['runs in the background: ls &']],
  ['sleep 100 & ls', false, ['runs in the background']],
  ['cat <<EOF | sh\nrm x\nEOF', false, ['runs a shell: sh']],
  ['sh <<EOF\nrm x\nEOF', false, ['runs a shell: sh']],
  ['cat <<EOF\n$(rm x)\nEOF', false, ['runs a nested command: $(rm x)', 'rm']],
  ['cat <<EOF\n$HOME\nEOF', false, ['expands a variable: $HOME']],
  [
    'rm -rf /',
    false,
    ['not a known read-only command: rm', 'names a path outside the project folder: /'],
  ],
  ['rm x', false, ['not a known read-only command: rm']],
  ['mv a b', false, ['mv']],
  ['cp a b', false, ['cp']],
  ['touch a', false, ['touch']],
  ['mkdir d', false, ['mkdir']],
  ['chmod +x a', false, ['chmod']],
  ['npm test', false, ['not a known read-only command: npm']],
  ['npm install', false, ['npm']],
  ['node script.js', false, ['node']],
  ['python3 -c "print(1)"', false, ['python3']],
  ['curl https://example.com', false, ['curl']],
  ['wget x', false, ['wget']],
  ['make', false, ['make']],
  ['awk "{print}" f', false, ['awk']],
  ['tee out.txt', false, ['tee']],
  ['ls | tee out.txt', false, ['tee']],
  ['./configure', false, ['runs a program by path: ./configure']],
  ['/bin/ls', false, ['runs a program by path: /bin/ls']],
  ['sort -o out.txt in.txt', false, ['sort -o']],
  ['sort --output=out in', false, ['sort --output=out']],
  ['sort --compress-program=sh in', false, ['sort --compress-program=sh']],
  ['uniq in.txt out.txt', false, ['writes to a file named by an extra argument']],
  ['xxd in out', false, ['extra argument']],
  ['tree -o out.txt', false, ['tree -o']],
  ['date -s "2020-01-01"', false, ['date -s']],
  ['hostname evil', false, ['extra argument']],
  ['rg --pre sh foo', false, ['rg --pre']],
  // Paths outside the folder.
  ['cat /etc/passwd', false, ['reads outside the project folder: /etc/passwd']],
  ['head ../other/key.pem', false, ['reads outside the project folder: ../other/key.pem']],
  ['cat src/../../secret', false, ['reads outside the project folder: src/../../secret']],
  ['cat ~/.ssh/id_rsa', false, ['reads outside the project folder: ~/.ssh/id_rsa']],
  ['ls ~', false, ['reads outside the project folder: ~']],
  ['ls /', false, ['reads outside the project folder: /']],
  ['grep -r key /home', false, ['reads outside the project folder: /home']],
  ['grep --file=/etc/shadow x', false, ['reads outside the project folder: --file=/etc/shadow']],
  ['wc -l < /etc/passwd', false, ['reads outside the project folder: < /etc/passwd']],
  ['find / -name id_rsa', false, ['reads outside the project folder: /']],
  ['cat /work/project/src/a.ts', true],
  ['cat src/../README.md', true],
  ['cat /dev/null', true],
  // Expansions and variables.
  ['echo $HOME', false, ['expands a variable: $HOME']],
  ['echo "${PATH}"', false, ['expands a variable: ${PATH}']],
  ['cat "$FILE"', false, ['expands a variable: $FILE']],
  ['$CMD', false, ['expands a variable: $CMD']],
  ['echo $((1+2))', false, ['expands arithmetic']],
  ['echo {a,b}', false, ['expands braces']],
  ['echo a{1..3}', false, ['expands braces']],
  ["echo $'a\\nb'", false, ['special quoting']],
  ['FOO=1 ls', false, ['sets variables for the command: FOO=1']],
  ['PAGER=sh git log', false, ['sets variables for the command: PAGER=sh']],
  ['x=1', false, ['changes shell variables: x=1']],
  ['export PATH=/tmp', false, ['changes shell variables']],
  ['x=$(rm y)', false, ['runs a nested command', 'rm']],
  // Shell constructs ask, but their commands are still shown.
  ['if true; then rm x; fi', false, ['uses a shell construct: if', 'rm']],
  ['for f in *; do cat $f; done', false, ['uses a shell construct: for']],
  ['while true; do ls; done', false, ['uses a shell construct: while']],
  ['f() { ls; }; f', false, ['function definition']],
  ['[[ -f x ]]', true],
  ['[[ -f $X ]]', false, ['expands a variable: $X']],
  ['[ "$(rm x)" ]', false, ['runs a nested command', 'rm']],
  ['case x in x) ls;; esac', false, ['case']],
  // Parse failures ask.
  ['ls &&', false, ['could not be parsed']],
  ['echo "unterminated', false, ['could not be parsed']],
  ['if then', false, ['could not be parsed']],
  ['cat <(', false, ['could not be parsed']],
  ['', false, ['empty']],
];

describe('classifyCommand', () => {
  it('has a table of at least 150 commands', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
  });

  it.each(CASES.map((c) => [JSON.stringify(c[0]), ...c] as const))(
    '%s',
    async (_label, command, safe, fragments) => {
      const result = await classifyCommand(command, FOLDER);
      expect(result.safe, JSON.stringify(result.reasons)).toBe(safe);
      if (safe) expect(result.reasons).toEqual([]);
      else expect(result.reasons.length).toBeGreaterThan(0);
      for (const fragment of fragments ?? []) {
        expect(result.reasons.join('\n')).toContain(fragment);
      }
      expect(result.safe).toBe(
        result.parsed &&
          result.parts.length > 0 &&
          result.parts.every((p) => p.safe) &&
          result.reasons.length === 0,
      );
    },
  );

  it('splits into parts with real words after quote removal', async () => {
    const result = await classifyCommand(
      `npm test -- --grep 'a b' && git log "--format=%h"; ls | wc -l`,
      FOLDER,
    );
    expect(result.parts.map((p) => p.argv)).toEqual([
      ['npm', 'test', '--', '--grep', 'a b'],
      ['git', 'log', '--format=%h'],
      ['ls'],
      ['wc', '-l'],
    ]);
    expect(result.parts.map((p) => p.safe)).toEqual([false, true, true, true]);
  });

  it('keeps a quoted separator inside one word and joins line continuations', async () => {
    expect((await classifyCommand('echo "a;b" \\\n c', FOLDER)).parts.map((p) => p.argv)).toEqual([
      ['echo', 'a;b', 'c'],
    ]);
  });

  it('shows the commands inside substitutions as parts of their own', async () => {
    const result = await classifyCommand('cat $(rm -rf x)', FOLDER);
    expect(result.parts.map((p) => p.argv[0])).toEqual(['cat', 'rm']);
    expect(result.parts.every((p) => !p.safe)).toBe(true);
  });

  it('follows symlinks inside a real folder that lead outside it', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await writeFile(path.join(folder, 'inside.txt'), 'x');
      await symlink('/etc/hostname', path.join(folder, 'innocent.txt'));
      await symlink('/etc', path.join(folder, 'conf'));
      expect((await classifyCommand('cat inside.txt', folder)).safe).toBe(true);
      expect((await classifyCommand('cat innocent.txt', folder)).reasons).toContain(
        'reads outside the project folder: innocent.txt',
      );
      expect((await classifyCommand('cat conf/passwd', folder)).safe).toBe(false);
      expect((await classifyCommand('wc -l < innocent.txt', folder)).safe).toBe(false);
      expect((await classifyCommand('cd conf && cat passwd', folder)).reasons).toContain(
        'changes to a folder outside the project: conf',
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('hangs a redirection after a list or pipeline on its last command, as bash does', async () => {
    const table: readonly [string, readonly (readonly string[])[]][] = [
      ['ls && echo hi > out.txt', [[], ['writes to a file: > out.txt']]],
      ['ls | grep x > out.txt', [[], ['writes to a file: > out.txt']]],
      ['ls || pwd && cat a > f', [[], [], ['writes to a file: > f']]],
      // A group takes the redirection whole.
      ['{ ls; pwd; } > f', [['writes to a file: > f'], ['writes to a file: > f']]],
      ['(ls && pwd) > f', [['writes to a file: > f'], ['writes to a file: > f']]],
    ];
    for (const [command, reasons] of table) {
      const result = await classifyCommand(command, FOLDER);
      expect(result.safe, command).toBe(false);
      expect(
        result.parts.map((part) => part.reasons),
        command,
      ).toEqual(reasons);
    }
  });

  it('reports a parse failure as not parsed, with no parts', async () => {
    const result = await classifyCommand('(ls', FOLDER);
    expect(result).toMatchObject({ parsed: false, safe: false, parts: [] });
  });
});
