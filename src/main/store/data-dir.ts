// Where Tandem keeps its own data (transcripts, journals, per-project rules) outside the app.
// The Electron shell passes app.getPath('userData'); the CLI and tests use this resolution.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

/** `$TANDEM_HOME`, else `$XDG_DATA_HOME/tandem`, else `~/.local/share/tandem`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TANDEM_HOME) return env.TANDEM_HOME;
  const xdg = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(xdg, 'tandem');
}

/** A stable folder name for one project: readable name plus a hash of its real path. */
export function projectKey(realFolder: string): string {
  const hash = createHash('sha256').update(realFolder).digest('hex').slice(0, 12);
  const name =
    basename(realFolder)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  return `${name}-${hash}`;
}

/** `<dataDir>/projects/<projectKey>`: sessions, journals and rules of one project live here. */
export function projectDataDir(dataDir: string, realFolder: string): string {
  return join(dataDir, 'projects', projectKey(realFolder));
}

/**
 * The real path of a data folder, as the path guard compares paths: symlinks resolved, and for a
 * folder not created yet, its deepest existing parent's real path with the rest appended.
 */
export function realDataFolder(dataDir: string): string {
  const wanted = resolve(dataDir);
  let existing = wanted;
  for (;;) {
    try {
      const real = realpathSync(existing);
      return existing === wanted ? real : join(real, wanted.slice(existing.length + 1));
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return wanted;
      existing = parent;
    }
  }
}
