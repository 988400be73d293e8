import { describe, expect, it } from 'vitest';
import { checkWidening, MAX_WIDENED_WORDS, wideningChoices } from './rule-widening';

describe('checkWidening: which prefixes may become `prefix *`', () => {
  const cases: { prefix: string[]; ok: boolean; reason?: RegExp }[] = [
    { prefix: ['rm', 'build'], ok: true },
    { prefix: ['npm', 'test'], ok: true },
    { prefix: ['npm', 'test', '--'], ok: true },
    { prefix: ['npm', 'run', 'build'], ok: true },
    { prefix: ['pnpm', 'lint'], ok: true },
    { prefix: ['git', 'commit'], ok: true },
    { prefix: ['git', 'status'], ok: true },
    { prefix: ['python', 'manage.py'], ok: true },
    { prefix: ['python3.12', 'scripts/build.py', 'all'], ok: true },
    { prefix: ['node', 'scripts/build.js'], ok: true },
    { prefix: ['bash', './build.sh'], ok: true },
    { prefix: ['cargo-like-unknown', 'x'], ok: true },
    // The program alone would be every use of it.
    { prefix: ['rm'], ok: false, reason: /`rm \*` would cover every use of `rm`/ },
    { prefix: ['npm'], ok: false, reason: /every use of `npm`/ },
    { prefix: ['bash'], ok: false, reason: /every use of `bash`/ },
    { prefix: ['git'], ok: false, reason: /every use of `git`/ },
    // Interpreters: the word after the program must be the script, not an option.
    { prefix: ['python', '-c'], ok: false, reason: /`python` runs code.*`-c`/ },
    { prefix: ['python', '-m', 'pytest'], ok: false, reason: /must name the script/ },
    { prefix: ['node', '-e'], ok: false, reason: /`node` runs code/ },
    { prefix: ['/usr/bin/node', '--require', 'x'], ok: false, reason: /runs code/ },
    { prefix: ['sh', '-c'], ok: false, reason: /`sh` runs code/ },
    { prefix: ['bash', '-c', 'echo hi'], ok: false, reason: /`bash` runs code/ },
    // git: only subcommands whose options name no program and no other machine.
    { prefix: ['git', 'push'], ok: false, reason: /`git push` can run other programs/ },
    { prefix: ['git', 'push', 'origin', 'main'], ok: false, reason: /`git push`/ },
    { prefix: ['git', 'rebase'], ok: false, reason: /`git rebase`/ },
    { prefix: ['git', '-c', 'core.pager=sh'], ok: false, reason: /`git -c`/ },
    // Package managers: package-running subcommands stay exact; `run` keeps the script name.
    { prefix: ['npm', 'exec'], ok: false, reason: /`npm exec` can fetch and run packages/ },
    { prefix: ['npm', 'explore', 'left-pad'], ok: false, reason: /run other commands/ },
    { prefix: ['npm', 'config', 'set'], ok: false, reason: /change its own settings/ },
    { prefix: ['yarn', 'node'], ok: false, reason: /`yarn node`/ },
    { prefix: ['npm', 'install'], ok: false, reason: /`npm install`/ },
    { prefix: ['pnpm', 'dlx', 'cowsay'], ok: false, reason: /`pnpm dlx`/ },
    { prefix: ['npm', 'publish'], ok: false, reason: /send the project out/ },
    { prefix: ['npm', 'run'], ok: false, reason: /`npm run` must keep the script's name/ },
    { prefix: ['npm', 'run', '--silent'], ok: false, reason: /must keep the script's name/ },
    { prefix: ['npm', '--prefix', 'x'], ok: false, reason: /`npm`'s own options/ },
    // Programs whose words name another command, or whose options run one: never widened.
    { prefix: ['npx', 'tsx', 'a.ts'], ok: false, reason: /`npx` fetches and runs/ },
    { prefix: ['env', 'FOO=1', 'make'], ok: false, reason: /`env` runs whatever command/ },
    { prefix: ['xargs', 'rm'], ok: false, reason: /never widened/ },
    { prefix: ['timeout', '10', 'npm'], ok: false, reason: /never widened/ },
    { prefix: ['find', '.'], ok: false, reason: /`-exec`/ },
    { prefix: ['make', 'build'], ok: false, reason: /`--eval`/ },
    { prefix: ['sed', '-i'], ok: false, reason: /never widened/ },
    { prefix: ['tar', '-xf'], ok: false, reason: /--to-command/ },
    // `sort -o out *` would accept `--compress-program=./evil.sh`; `rg x *` `--pre=./evil.sh`.
    { prefix: ['sort', '-o'], ok: false, reason: /--compress-program/ },
    { prefix: ['rg', 'alpha'], ok: false, reason: /--pre/ },
    { prefix: ['busybox', 'sh'], ok: false, reason: /never widened/ },
    { prefix: ['flock', 'lock'], ok: false, reason: /never widened/ },
  ];
  it.each(cases)('$prefix → $ok', ({ prefix, ok, reason }) => {
    const check = checkWidening(prefix);
    expect(check.ok).toBe(ok);
    if (!check.ok && reason) expect(check.reason).toMatch(reason);
  });

  it('refuses very long prefixes', () => {
    const long = ['rm', ...Array.from({ length: MAX_WIDENED_WORDS }, (_, i) => `f${i}`)];
    expect(checkWidening(long)).toMatchObject({ ok: false, reason: /up to 16 words/ });
  });
});

describe('wideningChoices', () => {
  it('lists every prefix of the shown words, shortest first, with whether it may be stored', () => {
    expect(
      wideningChoices(['npm', 'test', '--', '--watch']).map((c) => [
        c.prefix.join(' '),
        c.check.ok,
      ]),
    ).toEqual([
      ['npm', false],
      ['npm test', true],
      ['npm test --', true],
      ['npm test -- --watch', true],
    ]);
    expect(wideningChoices(['git', 'push', 'origin']).every((c) => !c.check.ok)).toBe(true);
    expect(wideningChoices([])).toEqual([]);
  });
});
