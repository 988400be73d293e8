// A stdio server's own program files must stay visible in its sandbox even where the sandbox hides
// things (the home folder, the private /tmp): a server installed under ~/tools or run from a
// checkout in /tmp would not start otherwise. What comes back, read-only, is the install the
// accepted command line names: for the program and its first argument (the script an
// interpreter runs), where absolute and existing there, the outermost
// folder below the hidden one that holds a package.json or node_modules (its dependencies live
// there), else the file's own folder (the file alone when that is the hidden folder itself). The rest of home and /tmp stays hidden.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../workspace/path-guard';

/** Strictly inside: `parent` itself is not. */
function inside(parent: string, child: string): boolean {
  return child !== parent && isInside(parent, child);
}

function installRoot(hidden: string, file: string): string {
  let root = statSync(file).isDirectory() ? file : path.dirname(file);
  // A file lying directly in the hidden folder (~/server.js): its own folder is the hidden one,
  // and showing that would show all of it (~/.ssh with it). Only the file itself comes back.
  if (!inside(hidden, root)) return file;
  for (let dir = root; inside(hidden, dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) || existsSync(path.join(dir, 'node_modules'))) {
      root = dir;
    }
  }
  return root;
}

/**
 * Whether resolving `word` passes through the project folder (real path `project`): a link there
 * is the agent's to make, so the folder it leads to is not the config's choice. Each prefix of the
 * word as written is resolved as the kernel would (a `..` after a link climbs from its target).
 */
function throughProject(word: string, project: string): boolean {
  const parts = word.split('/');
  for (let n = 1; n <= parts.length; n++) {
    const prefix = parts.slice(0, n).join('/') || '/';
    let real: string;
    try {
      real = realpathSync(prefix);
    } catch {
      return false;
    }
    if (isInside(project, real)) return true;
  }
  return false;
}

/**
 * Folders to show read-only for `words` (the command and its arguments) under `hidden`. A word
 * whose path passes through `project` (where the agent can make links) shows nothing: the project
 * is shown as it is anyway.
 */
export function programFolders(
  words: readonly string[],
  hidden: readonly string[],
  project?: string,
): string[] {
  const found = new Set<string>();
  const projectReal = project === undefined ? undefined : realOrItself(project);
  for (const word of words) {
    if (!path.isAbsolute(word)) continue;
    let real: string;
    try {
      real = realpathSync(word);
    } catch {
      continue;
    }
    if (projectReal !== undefined && throughProject(word, projectReal)) continue;
    const under = hidden.find((dir) => dir !== '' && dir !== '/' && inside(dir, real));
    if (under) found.add(installRoot(under, real));
  }
  return [...found].sort();
}

function realOrItself(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
