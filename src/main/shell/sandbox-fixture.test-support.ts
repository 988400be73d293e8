// Shared set-up for the bubblewrap tests (sandbox-launcher.test.ts, sandbox-git.test.ts): real
// folders, real bwrap, real pty.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runInPty } from './pty-session';
import { bwrapArgv, type ProjectAccess, type SandboxPlan } from './sandbox-launcher';

export const READ_ONLY: ProjectAccess = { kind: 'read-only' };
export const NO_GIT: ProjectAccess = { kind: 'read-write', git: 'read-only' };
export const GIT: ProjectAccess = { kind: 'read-write', git: 'protected' };

export class SandboxFixture {
  /** Under /tmp: the private /tmp must not hide it. Has .git/hooks and a .git/config of `[core]`. */
  folder = '';
  /** A fake home outside /tmp, so hiding it is the home rule's doing. Holds secret.txt. */
  home = '';
  private readonly made: string[] = [];

  async setUp(): Promise<void> {
    this.folder = await this.temp(path.join(os.tmpdir(), 'tandem-sbx-project-'));
    await mkdir(path.join(this.folder, '.git', 'hooks'), { recursive: true });
    await writeFile(path.join(this.folder, '.git', 'config'), '[core]\n');
    this.home = await this.temp('/var/tmp/tandem-sbx-home-');
    await writeFile(path.join(this.home, 'secret.txt'), 'TOP-SECRET-VALUE');
  }

  async tearDown(): Promise<void> {
    for (const dir of this.made) await rm(dir, { recursive: true, force: true });
  }

  /** A fresh temp folder, removed by tearDown. */
  async temp(prefix: string): Promise<string> {
    const dir = await mkdtemp(prefix);
    this.made.push(dir);
    return dir;
  }

  /** A fresh project folder under /tmp with the given files ('' content makes a folder). */
  async project(files: Readonly<Record<string, string>>): Promise<string> {
    const dir = await this.temp(path.join(os.tmpdir(), 'tandem-sbx-access-'));
    for (const [name, content] of Object.entries(files)) {
      const p = path.join(dir, name);
      if (content === '') {
        await mkdir(p, { recursive: true });
      } else {
        await mkdir(path.dirname(p), { recursive: true });
        await writeFile(p, content);
      }
    }
    return dir;
  }

  readonly sandboxed = (
    command: string,
    allowNetwork = false,
    extra: Partial<Parameters<typeof runInPty>[0]> = {},
    access: ProjectAccess = GIT,
    inFolder = this.folder,
  ) => {
    const plan: SandboxPlan = { folder: inFolder, home: this.home, allowNetwork, access };
    return runInPty({
      command,
      folder: inFolder,
      timeoutMs: 15_000,
      env: { ...process.env, HOME: this.home },
      wrap: (argv) => bwrapArgv(plan, argv),
      ...extra,
    });
  };
}

export const readIn = (dir: string, name: string) => readFile(path.join(dir, name), 'utf8');
