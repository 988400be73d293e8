// Where the built CLI keeps V8's compiled code of its chunks (src/cli/code-cache.ts). V8 checks
// only the length of the text cached data was made for, so whoever writes this folder chooses
// the code the CLI runs: like Tandem's data, no project may hold it or lie inside it (a sandboxed
// command writes only inside its project; the home folder is hidden and /tmp is private).
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** `$XDG_CACHE_HOME/tandem/v8` (XDG_CACHE_HOME only when absolute), else `~/.cache/tandem/v8`. */
export function codeCacheRoot(
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(home, '.cache');
  return join(base, 'tandem', 'v8');
}
