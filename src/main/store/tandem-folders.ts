// Every folder Tandem keeps something in that the agent must never reach: the data folder this
// process uses, the other front end's (the CLI's `~/.local/share/tandem`, the window's
// `~/.config/Tandem`), and the CLI's compiled-code cache, which it runs as code. Commands and MCP
// servers get all of them hidden, not only the running front end's own: a server's program folder
// or a command can otherwise reach the other's transcripts, rules or cache.
import { homedir } from 'node:os';
import { codeCacheRoot } from './code-cache-dir';
import { defaultDataDir, realDataFolder } from './data-dir';
import { windowDataDir } from './window-data-dir';

/** Real paths (through links, for folders not made yet too) of every Tandem folder, `own` first. */
export function tandemFolders(
  own: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = env.HOME || homedir(),
): string[] {
  const all = [
    own,
    defaultDataDir(env),
    windowDataDir({ platform: process.platform, env, home }),
    codeCacheRoot(env, home),
  ];
  return [...new Set(all.map(realDataFolder))];
}
