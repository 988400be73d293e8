// The files a command card binds (command-files.ts), in a real temp folder.
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyCommand } from '../shell/command-classifier';
import { namedFileContents } from './command-files';

let folder: string;
beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'tandem-command-files-')));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

async function named(text: string, same?: readonly string[]): Promise<Record<string, string>> {
  const verdict = await classifyCommand(text, folder, {});
  return namedFileContents(folder, { text, parts: verdict.parts }, same);
}

describe('a file too large to read', () => {
  it('counts as changed when rewritten to the same size with its time put back', async () => {
    const tool = join(folder, 'tool');
    await writeFile(tool, Buffer.alloc(1_100_000, 1));
    const reference = join(folder, 'reference');
    await writeFile(reference, '');
    execFileSync('touch', ['-r', tool, reference]);
    const card = await named('./tool --version');
    expect(Object.keys(card)).toEqual(['tool']);
    // A call ahead swaps the program and restores its modification time (`touch -r`).
    await writeFile(tool, Buffer.alloc(1_100_000, 2));
    execFileSync('touch', ['-r', reference, tool]);
    expect((await named('./tool --version', ['tool'])).tool).not.toBe(card.tool);
  });
});
