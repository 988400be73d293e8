import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/agent-harness';
import {
  loadProjectInstructions,
  MAX_INSTRUCTION_CHARS,
  type ProjectInstructions,
} from './project-instructions';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function project(files: Record<string, string>): Promise<string> {
  const folder = await makeTempDir('instructions');
  dirs.push(folder);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(folder, path, '..'), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  return folder;
}

interface Case {
  readonly case: string;
  readonly files: Record<string, string>;
  readonly expected: ProjectInstructions | undefined;
}

describe('project instructions', () => {
  it.each<Case>([
    { case: 'none at all', files: {}, expected: undefined },
    {
      case: 'AGENTS.md',
      files: { 'AGENTS.md': 'Run `make check` before you finish.' },
      expected: { file: 'AGENTS.md', text: 'Run `make check` before you finish.' },
    },
    {
      case: 'AGENTS.md before CLAUDE.md',
      files: { 'AGENTS.md': 'agents', 'CLAUDE.md': 'claude' },
      expected: { file: 'AGENTS.md', text: 'agents' },
    },
    {
      case: 'CLAUDE.md without AGENTS.md',
      files: { 'CLAUDE.md': 'claude', '.github/copilot-instructions.md': 'copilot' },
      expected: { file: 'CLAUDE.md', text: 'claude' },
    },
    {
      case: 'copilot instructions last',
      files: { '.github/copilot-instructions.md': '\uFEFFcopilot\n' },
      expected: { file: '.github/copilot-instructions.md', text: 'copilot' },
    },
    {
      case: 'an empty AGENTS.md gives way',
      files: { 'AGENTS.md': '  \n', 'CLAUDE.md': 'claude' },
      expected: { file: 'CLAUDE.md', text: 'claude' },
    },
    { case: 'a folder named AGENTS.md', files: { 'AGENTS.md/x': 'x' }, expected: undefined },
  ])('$case', async ({ files, expected }) => {
    expect(await loadProjectInstructions(await project(files))).toEqual(expected);
  });

  it('is cut at the bound, with a note that says so', async () => {
    const text = 'rule\n'.repeat(10_000);
    const folder = await project({ 'AGENTS.md': text });
    const loaded = await loadProjectInstructions(folder);
    expect(loaded?.note).toBe(
      `cut at 20,000 of ${(text.length - 1).toLocaleString('en-US')} characters`,
    );
    expect(loaded?.text.length).toBeLessThan(MAX_INSTRUCTION_CHARS + 100);
    expect(loaded?.text).toMatch(/\[… AGENTS\.md cut at 20,000 of 49,999 characters …\]$/);
    expect((await loadProjectInstructions(folder, 3000))?.text.length).toBeLessThan(3100);
  });

  it('sends nothing from a file past 1 MB, and says why', async () => {
    const folder = await project({ 'AGENTS.md': 'x'.repeat(1024 * 1024 + 1) });
    expect(await loadProjectInstructions(folder)).toEqual({
      file: 'AGENTS.md',
      text: '',
      note: 'AGENTS.md is 1.0 MB, more than the 1 MB Tandem reads; not sent',
    });
  });

  it('does not follow an AGENTS.md symlink out of the folder', async () => {
    const base = await makeTempDir('ctx-link');
    dirs.push(base);
    await mkdir(join(base, 'proj'));
    await writeFile(join(base, 'secret.txt'), 'OUTSIDE SECRET');
    await symlink(join(base, 'secret.txt'), join(base, 'proj', 'AGENTS.md'));
    expect(await loadProjectInstructions(join(base, 'proj'))).toBeUndefined();
    await writeFile(join(base, 'proj', 'CLAUDE.md'), 'Inside claude notes.');
    expect(await loadProjectInstructions(join(base, 'proj'))).toEqual({
      file: 'CLAUDE.md',
      text: 'Inside claude notes.',
    });
    await rm(join(base, 'proj', 'AGENTS.md'));
    await writeFile(join(base, 'proj', 'docs.md'), 'Inside notes.');
    await symlink('docs.md', join(base, 'proj', 'AGENTS.md'));
    expect((await loadProjectInstructions(join(base, 'proj')))?.text).toBe('Inside notes.');
  });
});
