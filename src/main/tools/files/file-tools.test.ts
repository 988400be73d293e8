import {
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileJournal, type FileJournal } from '../../workspace/file-journal';
import {
  ToolError,
  type AnyTool,
  type ToolContext,
  type ToolReturn,
  type WriteJournal,
} from '../tool';
import { createFileTools } from './index';

let base = '';
let folder = '';
let journal: FileJournal;
let callCount = 0;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tandem-files-')));
  folder = join(base, 'proj');
  await mkdir(folder);
  journal = await openFileJournal({ dir: join(base, 'data', 'journal'), folder });
});

afterEach(async () => {
  await chmod(folder, 0o755).catch(() => undefined);
  await rm(base, { recursive: true, force: true });
});

function tool(name: string): AnyTool {
  const found = createFileTools().find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

function context(callId = `call_${++callCount}`): ToolContext {
  return {
    folder,
    sessionId: 's1',
    callId,
    signal: new AbortController().signal,
    onOutput: () => undefined,
    services: { journal },
  };
}

async function run(name: string, args: Record<string, unknown>, ctx = context()): Promise<string> {
  const result: string | ToolReturn = await tool(name).execute(args as never, ctx);
  return typeof result === 'string' ? result : result.output;
}

async function runError(name: string, args: Record<string, unknown>): Promise<string> {
  try {
    await run(name, args);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error('expected a ToolError');
}

const write = async (rel: string, content: string | Buffer) => {
  await mkdir(join(folder, rel, '..'), { recursive: true });
  await writeFile(join(folder, rel), content);
};
const read = (rel: string) => readFile(join(folder, rel), 'utf8');

describe('tool set', () => {
  it('exports six tools with the right effects and path targets', () => {
    const tools = createFileTools();
    expect(tools.map((t) => [t.name, t.effect])).toEqual([
      ['list_dir', 'read'],
      ['read_file', 'read'],
      ['search', 'read'],
      ['find_files', 'read'],
      ['write_file', 'write'],
      ['edit_file', 'write'],
    ]);
    expect(
      tool('write_file').target?.({ path: 'a/b.txt', content: '' } as never, context()),
    ).toEqual({
      kind: 'path',
      path: join(folder, 'a', 'b.txt'),
      access: 'write',
    });
  });

  it.each(['list_dir', 'read_file', 'search', 'find_files', 'write_file', 'edit_file'])(
    '%s refuses a path outside the folder',
    async (name) => {
      const args = { path: '../outside', pattern: 'x', content: 'x', old_text: 'a', new_text: 'b' };
      expect(await runError(name, args)).toMatch(/outside the project folder/);
    },
  );
});

describe('list_dir', () => {
  it('marks folders, skips .git and node_modules when descending, shows symlinks', async () => {
    await write('src/a.ts', '');
    await write('node_modules/x/index.js', '');
    await write('.git/HEAD', '');
    await symlink('src/a.ts', join(folder, 'link'));
    const out = await run('list_dir', { depth: 2 });
    expect(out).toContain('src/\n  a.ts');
    expect(out).toContain('link -> src/a.ts');
    expect(out).toContain('node_modules/ (not listed)');
    expect(out).not.toContain('index.js');
    expect(out).toMatch(/\.git and node_modules not descended into; pass include_all/);
    expect(await run('list_dir', { depth: 3, include_all: true })).toContain('index.js');
  });

  it('bounds the count with a note', async () => {
    for (let i = 0; i < 510; i += 1) await writeFile(join(folder, `f${i}`), '');
    const out = await run('list_dir', {});
    expect(out).toMatch(/… 10 more entries not shown/);
  });
});

describe('read_file', () => {
  it('shows a numbered window and how to read on', async () => {
    await write('a.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const out = await run('read_file', { path: 'a.txt', offset: 3, limit: 2 });
    expect(out).toBe(
      'a.txt (lines 3-4 of 10)\n3\tline 3\n4\tline 4\n… 6 more lines; read on with offset=5.',
    );
  });

  it('describes binary files and reports bad encodings', async () => {
    await write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    expect(await run('read_file', { path: 'img.png' })).toMatch(
      /binary file \(PNG image\), 7 bytes/,
    );
    await write('latin1.txt', Buffer.from('caf\xe9 au lait\n', 'latin1'));
    expect(await run('read_file', { path: 'latin1.txt' })).toMatch(/not valid UTF-8: 1 invalid/);
  });

  it('says when a path is a folder or missing', async () => {
    await mkdir(join(folder, 'd'));
    expect(await runError('read_file', { path: 'd' })).toMatch(/is a folder; use list_dir/);
    expect(await runError('read_file', { path: 'nope.txt' })).toMatch(/does not exist/);
  });
});

describe('search and find_files', () => {
  beforeEach(async () => {
    await write('.gitignore', 'dist/\n*.log\n');
    await write('src/a.ts', 'const alpha = 1;\nconst beta = 2;\n');
    await write('src/sub/.gitignore', 'secret.ts\n');
    await write('src/sub/secret.ts', 'const alpha = 3;\n');
    await write('src/sub/b.ts', 'alpha(); alpha();\n');
    await write('dist/out.js', 'alpha\n');
    await write('debug.log', 'alpha\n');
    await write('.git/config', 'alpha\n');
  });

  it('finds regex matches as path:line: text, honouring nested .gitignore', async () => {
    const out = await run('search', { pattern: 'alph[a]' });
    expect(out.split('\n')).toEqual([
      'src/a.ts:1: const alpha = 1;',
      'src/sub/b.ts:1: alpha(); alpha();',
    ]);
  });

  it('takes literal text and reports what was left out', async () => {
    for (let i = 0; i < 5; i += 1) await write(`m${i}.txt`, 'x(1)\nx(1)\n');
    const out = await run('search', { pattern: 'x(1)', literal: true, max_results: 3 });
    expect(out.split('\n').slice(0, 3)).toEqual([
      'm0.txt:1: x(1)',
      'm0.txt:2: x(1)',
      'm1.txt:1: x(1)',
    ]);
    expect(out).toMatch(/… 7 more matches in 4 file\(s\) not shown/);
  });

  it('rejects a broken regex with a hint', async () => {
    expect(await runError('search', { pattern: '(' })).toMatch(
      /Invalid regular expression.*literal=true/,
    );
  });

  it('finds files by glob', async () => {
    expect(await run('find_files', { pattern: '*.ts' })).toBe('src/a.ts\nsrc/sub/b.ts');
    expect(await run('find_files', { pattern: 'src/*' })).toBe('src/a.ts\nsrc/sub/');
    expect(await run('find_files', { pattern: '**/*', max_results: 2 })).toMatch(
      /… \d+ more not shown/,
    );
  });
});

describe('write_file', () => {
  it('creates parents, previews a new file, and is revertible', async () => {
    const ctx = context('w1');
    const preview = await tool('write_file').preview?.(
      { path: 'a/b/c.txt', content: 'x\ny\n' } as never,
      ctx,
    );
    expect(preview).toMatchObject({
      kind: 'diff',
      path: 'a/b/c.txt',
      summary: 'new file, 2 lines',
      isNewFile: true,
    });
    expect(await run('write_file', { path: 'a/b/c.txt', content: 'x\ny\n' }, ctx)).toBe(
      'Created a/b/c.txt (2 lines).',
    );
    expect(await read('a/b/c.txt')).toBe('x\ny\n');
    expect(await journal.revert('w1')).toMatchObject({ ok: true });
    expect(await readdir(folder)).toEqual([]); // The file and the folders made for it are gone.
  });

  it('previews a unified diff and keeps the file mode', async () => {
    await write('run.sh', 'echo one\n');
    await chmod(join(folder, 'run.sh'), 0o750);
    const preview = await tool('write_file').preview?.(
      { path: 'run.sh', content: 'echo two\n' } as never,
      context(),
    );
    expect(preview).toMatchObject({ summary: '+1 −1', isNewFile: false });
    expect(preview && preview.kind === 'diff' ? preview.diff : '').toContain(
      '-echo one\n+echo two',
    );
    await run('write_file', { path: 'run.sh', content: 'echo two\n' });
    expect((await stat(join(folder, 'run.sh'))).mode & 0o777).toBe(0o750);
  });

  it('a failing write leaves the old content intact', async () => {
    await write('keep.txt', 'old\n');
    await chmod(folder, 0o555); // No new entries (the temp file) can be made here.
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) {
      expect(await runError('write_file', { path: 'keep.txt', content: 'new\n' })).toMatch(
        /Could not write keep.txt/,
      );
    }
    await chmod(folder, 0o755);
    // A target that is a folder fails on every platform, root or not.
    await mkdir(join(folder, 'dir'));
    await write('dir/inner.txt', 'inner\n');
    expect(await runError('write_file', { path: 'dir', content: 'new\n' })).toMatch(
      /dir is a folder/,
    );
    expect(await read('keep.txt')).toBe('old\n');
    expect(await read('dir/inner.txt')).toBe('inner\n');
    expect((await readdir(folder)).filter((n) => n.includes('tandem'))).toEqual([]); // No temp files left.
  });

  it('writes through a symlink inside to its real target, leaving the link', async () => {
    await write('real.txt', 'old\n');
    await symlink('real.txt', join(folder, 'alias.txt'));
    await run('write_file', { path: 'alias.txt', content: 'new\n' });
    expect(await read('real.txt')).toBe('new\n');
    expect((await stat(join(folder, 'alias.txt'))).isFile()).toBe(true);
  });
});

describe('edit_file', () => {
  it('replaces exactly one occurrence and previews a diff', async () => {
    await write('a.ts', 'one\ntwo\nthree\n');
    const preview = await tool('edit_file').preview?.(
      { path: 'a.ts', old_text: 'two', new_text: 'TWO' } as never,
      context(),
    );
    expect(preview && preview.kind === 'diff' ? preview.diff : '').toContain('-two\n+TWO');
    expect(await run('edit_file', { path: 'a.ts', old_text: 'two', new_text: 'TWO' })).toBe(
      'Edited a.ts: +1 −1.',
    );
    expect(await read('a.ts')).toBe('one\nTWO\nthree\n');
  });

  it('refuses zero and several matches with the count and a hint', async () => {
    await write('a.ts', 'x = 1\ny = 2\nx = 1\n');
    expect(await runError('edit_file', { path: 'a.ts', old_text: 'z = 3', new_text: 'q' })).toMatch(
      /not found in a.ts \(0 occurrences\).*read the file again/,
    );
    expect(
      await runError('edit_file', { path: 'a.ts', old_text: 'x = 1', new_text: 'x = 9' }),
    ).toMatch(/occurs 2 times in a.ts \(lines 1, 3\).*more surrounding lines.*replace_all/);
    expect(
      await run('edit_file', {
        path: 'a.ts',
        old_text: 'x = 1',
        new_text: 'x = 9',
        replace_all: true,
      }),
    ).toBe('Edited a.ts (2 occurrences): +2 −2.');
    expect(await read('a.ts')).toBe('x = 9\ny = 2\nx = 9\n');
  });

  it('refuses an empty old_text and a missing file', async () => {
    await write('a.ts', 'x\n');
    expect(await runError('edit_file', { path: 'a.ts', old_text: '', new_text: 'y' })).toMatch(
      /old_text is empty.*write_file/,
    );
    expect(await runError('edit_file', { path: 'b.ts', old_text: 'x', new_text: 'y' })).toMatch(
      /does not exist; use write_file/,
    );
  });

  it('keeps CRLF line endings when the edit is written with LF', async () => {
    await write('win.txt', 'first\r\nsecond\r\nthird\r\n');
    await run('edit_file', {
      path: 'win.txt',
      old_text: 'first\nsecond',
      new_text: 'first\ninserted\nsecond',
    });
    expect(await read('win.txt')).toBe('first\r\ninserted\r\nsecond\r\nthird\r\n');
  });

  it('refuses to edit a non-UTF-8 file', async () => {
    await write('latin1.txt', Buffer.from('caf\xe9\n', 'latin1'));
    expect(
      await runError('edit_file', { path: 'latin1.txt', old_text: 'caf', new_text: 'x' }),
    ).toMatch(/not valid UTF-8/);
  });

  it('records before and after so the edit reverts', async () => {
    await write('a.ts', 'one\n');
    const ctx = context('e1');
    await run('edit_file', { path: 'a.ts', old_text: 'one', new_text: 'uno' }, ctx);
    expect(await journal.revert('e1')).toMatchObject({
      ok: true,
      files: [{ path: join(folder, 'a.ts'), action: 'restored' }],
    });
    expect(await read('a.ts')).toBe('one\n');
  });
});

describe('a folder swapped for a symlink after the check', () => {
  // The journal runs between the guard's check and the write: the racer's window, held open.
  const swappingJournal = (): WriteJournal => ({
    async recordBefore() {
      await rename(join(folder, 'a'), join(folder, 'a.real'));
      await symlink(join(base, 'outside'), join(folder, 'a'));
    },
  });

  it.each([
    ['write_file', { path: 'a/x.txt', content: 'PWNED\n' }],
    ['edit_file', { path: 'a/x.txt', old_text: 'old', new_text: 'PWNED' }],
  ])(
    '%s refuses, saying it could not verify the path, and writes nothing outside',
    async (name, args) => {
      await mkdir(join(base, 'outside'));
      await writeFile(join(base, 'outside', 'x.txt'), 'old outside\n');
      await write('a/x.txt', 'old\n');
      const ctx = { ...context(), services: { journal: swappingJournal() } };
      await expect(tool(name).execute(args as never, ctx)).rejects.toThrow(
        /^Could not write a\/x\.txt: could not verify that .*proj\/a is the checked path inside the project \(it is a symlink now\)/,
      );
      expect(await readFile(join(base, 'outside', 'x.txt'), 'utf8')).toBe('old outside\n');
      expect(await readdir(join(base, 'outside'))).toEqual(['x.txt']);
      expect(await read('a.real/x.txt')).toBe('old\n');
    },
  );
});

describe('search edge cases', () => {
  it('accepts escapes that only legacy regex syntax allows, and case-insensitive search', async () => {
    await write('a.txt', 'foo-bar\nFOO-BAR\n');
    expect(await run('search', { pattern: 'foo\\-bar' })).toBe('a.txt:1: foo-bar');
    expect(await run('search', { pattern: 'foo-bar', case_sensitive: false })).toBe(
      'a.txt:1: foo-bar\na.txt:2: FOO-BAR',
    );
  });

  it('does not follow symlinks out of the folder', async () => {
    await mkdir(join(base, 'outside'));
    await writeFile(join(base, 'outside', 'secret.txt'), 'password=hunter2\n');
    await symlink(join(base, 'outside'), join(folder, 'out-dir'));
    await symlink(join(base, 'outside', 'secret.txt'), join(folder, 'out-file'));
    await write('ok.txt', 'password=none\n');
    expect((await run('search', { pattern: 'password' })).split('\n')).toEqual([
      'ok.txt:1: password=none',
      '(2 symbolic link(s) not followed; their targets inside the project are searched where they are.)',
    ]);
  });
});
