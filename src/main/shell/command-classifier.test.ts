import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
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
  // Conditions that make bash evaluate subscripts or arithmetic, which runs $(...) inside them.
  ["[ -v 'a[$(touch pwned1)]' ]", false, ['a -v test evaluates array subscripts']],
  ["test -v 'a[$(touch pwned2)]'", false, ['a -v test evaluates array subscripts']],
  ["[[ -v 'a[$(touch pwned3)]' ]]", false, ['a -v test evaluates array subscripts']],
  ["[[ 'a[$(touch pwned4)]' -eq 1 ]]", false, ['an arithmetic comparison evaluates']],
  ["printf -v 'a[$(touch pwned5)]' x", false, ['printf -v']],
  ['[[ -R ref ]]', false, ['a -R test']],
  ['[[ ! -v name ]]', false, ['a -v test']],
  ['[[ x -lt 3 ]]', false, ['an arithmetic comparison evaluates']],
  ["test 'a[1]' -ge 0", false, ['an arithmetic comparison evaluates']],
  ['[ "$n" -eq 1 ]', false, ['expands a variable']],
  ['[[ 1 -eq 1 ]]', true],
  ['[ 2 -gt 1 ]', true],
  ['test 3 -ne 4', true],
  ['[[ -n x && 1 -le 2 ]]', true],
  ['((1 + 2))', false, ['not auto-approved']],
  ['(( a[$(touch x)] ))', false, ['runs a nested command', 'touch']],
  ['let x=1', false, ['not a known read-only command: let']],
  ['echo $((a[1]))', false, ['expands arithmetic']],
  // Long options abbreviated to any prefix, even one or two letters.
  ["git grep --op='touch pwned0; true' bye", false, ['git grep --op=touch pwned0; true']],
  ["git grep -O'touch x; true' bye", false, ['git grep -Otouch x; true']],
  ['sort --co=sh -S 1k', false, ['sort --co=sh']],
  ['sed --i s/a/b/ f', false, ['sed --i']],
  ['sort --o=out f', false, ['sort --o=out']],
  ['git diff --o=x', false, ['git diff --o=x']],
  ['git log --outp=x', false, ['git log --outp=x']],
  ['git shortlog --output=x', false, ['git shortlog --output=x']],
  ['git rev-list --output=x HEAD', false, ['git rev-list --output=x']],
  ['git stash show --output=x', false, ['git stash --output=x']],
  ['git stash list --out=x', false, ['git stash --out=x']],
  ['git blame --output=x f', false, ['git blame --output=x']],
  ['git show --ext-diff', false, ['git show --ext-diff']],
  ['git log -p --textconv', false, ['git log --textconv']],
  ['git grep --textconv x', false, ['git grep --textconv']],
  ['git --git-dir=/tmp/x log', false, ['git --git-dir=/tmp/x']],
  ['git --g=x log', false, ['git --g=x']],
  ['git --work-tree=. status', false, ['git --work-tree=.']],
  ['git --config-env=core.pager=P log', false, ['git --config-env']],
  ['git --exec-path', false, ['git --exec-path']],
  ['git -C /tmp status', false, ['reads outside the project folder: /tmp']],
  ['git --no-pager log --oneline --output-indicator-new=+', true],
  ['git diff --stat --no-ext-diff', true],
  // sed options parsed as sed does; every script is judged.
  ["sed -l 1 '1e touch pwned_sed' README.md", false, ['sed script may write or run something: 1e']],
  ["sed -l 5 'w out3' README.md", false, ['sed script may write or run something: w out3']],
  ["sed -n --expr='w out4' -- p", false, ['sed script may write or run something: w out4']],
  ["sed -n -e p --e 'w out2' README.md", false, ['sed script may write or run something: w out2']],
  ["sed --line-length=5 'w o' f", false, ['sed script may write']],
  ['sed -nE -e p -es/a/b/w\\ o f', false, ['sed script may write']],
  ["sed -sz 'e ls' f", false, ['sed script may write']],
  ['sed --fi=x.sed f', false, ['runs a sed script file']],
  ['sed -nf x.sed f', false, ['runs a sed script file']],
  ['sed -x p f', false, ['sed option not understood: -x']],
  ['sed --bogus p f', false, ['sed option not understood: --bogus']],
  ['sed -e', false, ['without a value']],
  ['sed -n', false, ['sed without a script']],
  ['sed -l 5 -n 1p f', true],
  ['sed --f x.sed f', false, ['sed option not understood: --f']],
  ['sed --s -n 1p f', true],
  ['sed -nE --expression=1p -e 2p f', true],
  ['sed -s -u -z --posix 3p f', true],
  // Reading past the folder: attached values, recursion that follows symlinks.
  ['file -f/etc/passwd', false, ['file -f/etc/passwd', 'reads outside the project folder']],
  ['file --files-from=list', false, ['file --files-from=list']],
  ['grep -f/etc/passwd README.md', false, ['reads outside the project folder: -f/etc/passwd']],
  ['grep -rf../key x', false, ['reads outside the project folder: -rf../key']],
  ['grep --file=/etc/passwd x', false, ['reads outside the project folder: --file=/etc/passwd']],
  ['grep -R root .', false, ['grep -R']],
  ['grep -rR root .', false, ['grep -rR']],
  ['grep --dereference-recursive root .', false, ['grep --dereference-recursive']],
  ['egrep -R x .', false, ['egrep -R']],
  ['find -L .', false, ['find -L']],
  ['find . -follow', false, ['find -follow']],
  ['find . -files0-from list', false, ['find -files0-from']],
  ['diff -r a b', false, ['diff -r']],
  ['diff --recursive a b', false, ['diff --recursive']],
  ['diff --from-file=/etc/passwd a', false, ['reads outside the project folder']],
  ['du -L .', false, ['du -L']],
  ['du --files0-from=list', false, ['du --files0-from']],
  ['wc --files0-from=list', false, ['wc --files0-from']],
  ['sort --files0-from=list', false, ['sort --files0-from']],
  ['ls -L', false, ['ls -L']],
  ['ls -lL src', false, ['ls -lL']],
  ['rg -L root', false, ['rg -L']],
  ['rg --follow root', false, ['rg --follow']],
  ['rg --pre-glob "*.gz" --pre sh x', false, ['rg --pre-glob', 'rg --pre']],
  ['rg --hostname-bin=sh x', false, ['rg --hostname-bin']],
  ['md5sum -c sums', false, ['md5sum -c']],
  ['sha256sum --check sums', false, ['sha256sum --check']],
  ['grep -rn root .', true],
  ['diff -u a b', true],
  ['ls -R src', true],
  ['rg --files', true],
  // The environment may hold credentials.
  ['printenv', false, ['prints environment variables, which may hold secrets']],
  ['printenv GITHUB_TOKEN', false, ['prints environment variables, which may hold secrets']],
  ['env -0', false, ['prints environment variables, which may hold secrets']],
  ['jq -n env', false, ['a jq program that reads the environment']],
  ['jq -n $ENV.AWS_SECRET_ACCESS_KEY', false, ['reads the environment']],
  ['set', false, ['not a known read-only command: set']],
  ['declare -p', false, ['changes shell variables']],
  ['export -p', false, ['changes shell variables']],
  ['compgen -v', false, ['not a known read-only command: compgen']],
  ['alias', false, ['not a known read-only command: alias']],
  ["jq --rawfile k /etc/passwd -n '$k'", false, ['reads outside the project folder: /etc/passwd']],
  ['jq .environment package.json', true],
  ['jq -n \'import "../../home/x" as $d; $d\'', false, ['loads modules or data files']],
  ['jq -L /tmp -n 1', false, ['loads modules']],
  ['cut -d/ -f2 paths.txt', true],
  ['sort -t/ -k2 paths.txt', true],
  ['xxd -l 64 -s 16 file.bin', true],
  ['uniq -f 1 -c sorted.txt', true],
  ['uniq -f 1 in out', false, ['extra argument']],
  // Table lookups by user words never reach inherited properties.
  ['git constructor', false, ['not a read-only subcommand: git constructor']],
  ['git toString', false, ['not a read-only subcommand: git toString']],
  ['git __proto__', false, ['not a read-only subcommand: git __proto__']],
  ['constructor', false, ['not a known read-only command: constructor']],
  ['hasOwnProperty x', false, ['not a known read-only command: hasOwnProperty']],
  // Options that write.
  ['tree -R', false, ['tree -R']],
  ['tree -H . -R', false, ['tree -R']],
  ['tree -o out.txt', false, ['tree -o']],
  ['tree -l', false, ['tree -l']],
  ['uniq -c in out', false, ['writes to a file named by an extra argument']],
  ['xxd -r in out', false, ['extra argument']],
  ['less file', false, ['not a known read-only command: less']],
  ['man -P sh ls', false, ['not a known read-only command: man']],
  ['split f', false, ['split']],
  ['csplit f 1', false, ['csplit']],
  ['awk \'BEGIN{system("ls")}\'', false, ['not a known read-only command: awk']],
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
  // A number after a plain redirection operator is a file name; only `>&N` / `<&N` duplicate.
  ['echo pwned > 123', false, ['writes to a file: > 123']],
  ['echo x > -1', false, ['writes to a file: > -1']],
  ['echo y > 0x10', false, ['writes to a file: > 0x10']],
  ['echo z &> 8', false, ['writes to a file: &> 8']],
  ['cd src && echo x > 9', false, ['writes to a file: > 9']],
  ['echo x >> 5', false, ['writes to a file: >> 5']],
  ['echo x >| 5', false, ['writes to a file: >| 5']],
  ['echo x 2> 5', false, ['writes to a file: 2> 5']],
  ['echo x &>> 5', false, ['writes to a file: &>> 5']],
  ['echo x >& out', false, ['writes to a file: >& out']],
  ['echo x >& 2', true],
  ['echo x 2>& 1', true],
  ['cat <&0', true],
  ['cat < 5', true],
  // `date MMDDhhmm[[CC]YY]` sets the clock; only a +FORMAT operand is allowed.
  ['date 010100002030', false, ['an operand other than +FORMAT sets the clock']],
  ['date -u 010100002030', false, ['sets the clock']],
  ['date -- 0101', false, ['sets the clock']],
  ['date -Id 010100002030', false, ['sets the clock']],
  ['date -d "next week" +%F', true],
  ['date --date 2020-01-01 -u', true],
  ['date -ud 2020-01-01', true],
  ['date -R', true],
  ['date -f /etc/passwd', false, ['reads outside the project folder: /etc/passwd']],
  // jq program files are never looked at.
  ['jq -f prog.jq x.json', false, ['jq -f']],
  ['jq -nrf prog.jq', false, ['jq -nrf']],
  ['jq --from-file prog.jq', false, ['jq --from-file']],
  ['jq --from prog.jq', false, ['jq --from']],
  ['jq --slurpfile a /etc/passwd -n 1', false, ['reads outside the project folder: /etc/passwd']],
  // File tests name paths.
  ['[ -e /root/.ssh/id_rsa ]', false, ['reads outside the project folder: /root/.ssh/id_rsa']],
  ['[[ -f ~/.bashrc ]]', false, ['reads outside the project folder: ~/.bashrc']],
  ['[[ -r "/etc/shadow" && -n y ]]', false, ['reads outside the project folder: /etc/shadow']],
  ['[ a -nt /etc/passwd ]', false, ['reads outside the project folder: /etc/passwd']],
  ['[[ ../x -ef y ]]', false, ['reads outside the project folder: ../x']],
  ['test -r /etc/shadow', false, ['reads outside the project folder: /etc/shadow']],
  ['[ -f README.md ]', true],
  ['[[ -n /not/a/path/test ]]', true],
  // git config reads only the repository's own configuration (tokens live in ~/.gitconfig).
  ['git config --list', false, ['lists git configuration of every scope']],
  ['git config -l', false, ['every scope']],
  ['git config --show-origin --list', false, ['every scope']],
  ['git config --get-regexp url', false, ['every scope']],
  ['git config --global -l', false, ['outside the repository: git config --global']],
  ['git config --glob --get user.name', false, ['git config --glob']],
  ['git config --system --list', false, ['git config --system']],
  ['git config --file /tmp/x --list', false, ['git config --file']],
  ['git config -f x --get a.b', false, ['git config -f']],
  ['git config --blob HEAD:x --list', false, ['git config --blob']],
  ['git config --local --includes --list', false, ['git config --includes']],
  ['git config list', false, ['every scope']],
  ['git config get --all --regexp url', false, ['every scope']],
  ['git config set a.b c', false, ['changes git configuration']],
  ['git config unset a.b', false, ['changes git configuration']],
  ['git config --local --list', true],
  ['git config --local --get-regexp url', true],
  ['git config list --local', true],
  ['git config get user.name', true],
  ['git config --get-all remote.origin.url', true],
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

  it('expands wildcards against the real folder and asks for links that lead outside', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await writeFile(path.join(folder, 'README.md'), 'x');
      await writeFile(path.join(folder, 'a.ts'), 'x');
      await mkdir(path.join(folder, 'sub'));
      await symlink('/etc/passwd', path.join(folder, 'link'));
      await symlink('/etc', path.join(folder, 'sub', 'conf'));
      const table: readonly Case[] = [
        [
          'cat li*',
          false,
          ['a wildcard matches a link that leads outside the project folder: li*'],
        ],
        ['cat l?nk', false, ['(link)']],
        ['cat LI*', false, ['(link)']],
        ['cat @(link)', false, ['could not be parsed']],
        ["cat 'li'*", false, ['(link)']],
        ['cat sub/*/passwd', false, ['(sub/conf/passwd)']],
        ['ls sub/*', false, ['(sub/conf)']],
        ['cd sub && cat *', false, ['(link)']],
        ['wc -l < li*', false, ['(link)']],
        ['cd s* && ls', false, ['changes folder in a way that cannot be checked']],
        ['ls **/x', false, ['a wildcard that cannot be checked']],
        ['cat *.md', true],
        ['ls *.ts', true],
        ['find *.ts', true],
        ["cat 'l*'", true],
      ];
      for (const [command, safe, fragments] of table) {
        const result = await classifyCommand(command, folder);
        expect(result.safe, `${command}: ${JSON.stringify(result.reasons)}`).toBe(safe);
        for (const fragment of fragments ?? []) {
          expect(result.reasons.join('\n'), command).toContain(fragment);
        }
      }
      // A wildcard that matches a file named like an option asks for commands that have them.
      await writeFile(path.join(folder, '-delete'), 'x');
      expect((await classifyCommand('find *', folder)).reasons).toContain(
        'a wildcard could expand to a file named like an option of find',
      );
      expect((await classifyCommand('cat *.md', folder)).safe).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('asks for git read commands when the repository is larger than the folder', async () => {
    const top = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-git-')));
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: top };
      execFileSync('git', ['init', '-q', top], { env });
      await mkdir(path.join(top, 'project'));
      await mkdir(path.join(top, 'own'));
      execFileSync('git', ['init', '-q', path.join(top, 'own')], { env });
      const project = path.join(top, 'project');
      for (const command of [
        'git show HEAD:secret.txt',
        'git log -p',
        'git status',
        'git grep x',
      ]) {
        const result = await classifyCommand(command, project);
        expect(result.safe, command).toBe(false);
        expect(result.reasons).toContain(
          `the git repository (${top}) is larger than the project folder`,
        );
      }
      expect((await classifyCommand('ls', project)).safe).toBe(true);
      // The repository's own top, and a folder outside any repository, are fine.
      expect((await classifyCommand('git status', path.join(top, 'own'))).safe).toBe(true);
      expect((await classifyCommand('git log -p', top)).safe).toBe(true);
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });

  it('judges number-named files, folder operands of diff and .* wildcards on a real folder', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-'));
    try {
      await mkdir(path.join(folder, 'sub'));
      await mkdir(path.join(folder, 'other'));
      await writeFile(path.join(folder, 'a'), 'x');
      await writeFile(path.join(folder, 'b'), 'y');
      await symlink('/etc/passwd', path.join(folder, '5'));
      const table: readonly Case[] = [
        ['cat < 5', false, ['reads outside the project folder: < 5']],
        ['wc -l 0< 5', false, ['reads outside the project folder']],
        ['diff sub other', false, ['reads the files inside a folder, following any link there']],
        ['diff a sub', false, ['diff sub']],
        ['diff --from-file=sub a', false, ['diff --from-file=sub']],
        ['diff s* a', false, ['reads the files inside a folder']],
        ['cd sub && diff . ../other', false, ['reads the files inside a folder']],
        ['diff a b', true],
        ['diff -u a b', true],
        // bash < 5.2 (macOS /bin/bash 3.2) lets `.*` match `..`.
        ['cat .*/secret', false, ['a wildcard may match a path outside the project folder']],
        ['ls -d .*', false, ['(..)']],
        ['cat ?./x', false, ['outside the project folder']],
        ['cat sub/.*', true],
        ['[ -f .*/x ]', false, ['outside the project folder']],
        ['[ -f a ]', true],
      ];
      for (const [command, safe, fragments] of table) {
        const result = await classifyCommand(command, folder);
        expect(result.safe, `${command}: ${JSON.stringify(result.reasons)}`).toBe(safe);
        for (const fragment of fragments ?? []) {
          expect(result.reasons.join('\n'), command).toContain(fragment);
        }
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('asks when git would use a repository outside the project (gitfiles, -C, cd)', async () => {
    const top = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tandem-classify-git-')));
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: top };
      const project = path.join(top, 'project');
      const outside = path.join(top, 'outside');
      execFileSync('git', ['init', '-q', project], { env });
      execFileSync('git', ['init', '-q', outside], { env });
      await mkdir(path.join(project, 'nested'));
      await mkdir(path.join(project, 'plain'));
      await writeFile(path.join(project, 'nested', '.git'), `gitdir: ${outside}/.git\n`);
      const away = `git would use a repository outside the project: ${outside}`;
      const table: readonly Case[] = [
        ['git -C nested log -p', false, [away]],
        ['git -C plain -C ../nested status', false, [away]],
        ['cd nested && git log', false, [away]],
        ['cd nested; git show HEAD', false, [away]],
        ['git -C plain status', true],
        ['cd plain && git log', true],
        ['git status', true],
      ];
      for (const [command, safe, fragments] of table) {
        const result = await classifyCommand(command, project);
        expect(result.safe, `${command}: ${JSON.stringify(result.reasons)}`).toBe(safe);
        for (const fragment of fragments ?? []) {
          expect(result.reasons.join('\n'), command).toContain(fragment);
        }
      }
      // Read commands run programs the repository's config names (filters, textconv, pager).
      execFileSync('git', ['-C', project, 'config', 'filter.x.smudge', 'touch pwned'], { env });
      execFileSync('git', ['-C', project, 'config', 'diff.y.textconv', 'cat'], { env });
      const runs = await classifyCommand('git log -p', project);
      expect(runs.safe).toBe(false);
      expect(runs.reasons).toContain(
        "the repository's config runs programs (filter.x.smudge, diff.y.textconv)",
      );
      expect((await classifyCommand('ls', project)).safe).toBe(true);
      // A project whose own .git is a gitfile leading out.
      const linked = path.join(top, 'linked');
      await mkdir(linked);
      await writeFile(path.join(linked, '.git'), `gitdir: ${outside}/.git\n`);
      const result = await classifyCommand('git log', linked);
      expect(result.safe).toBe(false);
      expect(result.reasons.join('\n')).toContain(away);
    } finally {
      await rm(top, { recursive: true, force: true });
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
