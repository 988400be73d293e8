// The code cache's folder holds compiled code the built CLI runs as its own (V8 checks only the
// length of the text it was made for), so no sandboxed command may ever write there. Commands can
// write only inside their project folder (the home folder is hidden, /tmp is private): a project
// that holds the cache folder, or lies inside it, is refused like one around Tandem's data.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { codeCacheRoot } from '../main/store/code-cache-dir';
import { checkedProjectFolder } from './project-folder';
import { CliFailure, type CliIo } from './cli-io';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function io(env: NodeJS.ProcessEnv): CliIo {
  return {
    stdout: { write: () => true },
    stderr: { write: () => true },
    stdin: Readable.from([]),
    stdinIsTTY: false,
    env,
    cwd: '/',
  };
}

function refusal(folder: string, env: NodeJS.ProcessEnv): string {
  try {
    checkedProjectFolder(folder, join(env.HOME ?? '/', 'data'), io(env));
    return 'accepted';
  } catch (error) {
    if (error instanceof CliFailure) return error.message;
    throw error;
  }
}

describe('a project folder around or inside the code cache', () => {
  const cases = [
    // XDG_CACHE_HOME pointed into a project (direnv, containers with a read-only home).
    { name: 'XDG_CACHE_HOME inside the project', project: 'work/app', xdg: 'work/app/.cache' },
    { name: 'the default ~/.cache as the project', project: 'home/.cache', xdg: undefined },
    {
      name: 'a project inside the cache folder',
      project: 'home/.cache/tandem/v8/x',
      xdg: undefined,
    },
  ];
  it.each(cases)('$name is refused by tandem run', ({ project, xdg }) => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-cc-project-')));
    roots.push(root);
    const folder = join(root, project);
    mkdirSync(folder, { recursive: true });
    mkdirSync(join(root, 'home'), { recursive: true });
    const env = { HOME: join(root, 'home'), ...(xdg ? { XDG_CACHE_HOME: join(root, xdg) } : {}) };
    expect(codeCacheRoot(env, env.HOME)).toBe(join(root, xdg ?? 'home/.cache', 'tandem', 'v8'));
    expect(refusal(folder, env)).toContain("Tandem's own");
  });

  // ~/.cache a link to another disk, and the cache not made yet (a first run with the cache off,
  // or from the sources): the project that will hold it is still refused.
  it('the folder a linked ~/.cache leads to, before the cache exists, is refused', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-cc-project-')));
    roots.push(root);
    const disk = join(root, 'disk', 'cache');
    mkdirSync(disk, { recursive: true });
    mkdirSync(join(root, 'home'), { recursive: true });
    symlinkSync(disk, join(root, 'home', '.cache'));
    const env = { HOME: join(root, 'home') };
    expect(existsSync(codeCacheRoot(env, env.HOME))).toBe(false);
    expect(refusal(disk, env)).toContain("Tandem's own");
  });

  it('a project beside it is accepted', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-cc-project-')));
    roots.push(root);
    const folder = join(root, 'home', 'code', 'app');
    mkdirSync(folder, { recursive: true });
    expect(refusal(folder, { HOME: join(root, 'home') })).toBe('accepted');
  });
});
