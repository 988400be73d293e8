// The project folder a CLI command works in: it must exist and be a folder, and it is refused
// like the window refuses it (/, the home folder, system folders, Tandem's data), since the agent
// and MCP servers read every file of it without asking.
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { codeCacheRoot } from '../main/store/code-cache-dir';
import { windowDataDir } from '../main/store/window-data-dir';
import { projectFolderRefusal } from '../main/workspace/project-folder-rules';
import { CliFailure, EXIT, type CliIo } from './cli-io';

/** The real path of `given`, or a CliFailure (exit 3) saying why Tandem does not work there. */
export function checkedProjectFolder(given: string, dataDir: string, io: CliIo): string {
  const kind = pathKind(given);
  if (kind !== 'folder') {
    throw new CliFailure(
      kind === 'missing'
        ? `folder does not exist: ${given}`
        : `not a folder: ${given} is a file; give the folder it is in`,
      EXIT.setup,
    );
  }
  const folder = realpathSync(given);
  const home = io.env.HOME || homedir();
  const refusal = projectFolderRefusal(folder, {
    platform: process.platform,
    home: realOr(home),
    dataFolders: [
      realOr(dataDir),
      realOr(windowDataDir({ platform: process.platform, env: io.env, home })),
      // The built CLI runs the compiled code found there (code-cache.ts).
      realOr(codeCacheRoot(io.env, home)),
    ],
    env: io.env,
  });
  if (refusal) {
    throw new CliFailure(
      `Tandem does not work in ${folder}: ${refusal}. The agent reads every file of its folder without asking, so give the folder of one project with --folder`,
      EXIT.setup,
    );
  }
  return folder;
}

function pathKind(path: string): 'folder' | 'file' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

/**
 * The real path of `path`, or of its deepest existing ancestor with the rest appended: a data
 * folder not made yet (the code cache before its first use) is still compared where it will be,
 * through links on the way there (~/.cache a link to another disk).
 */
function realOr(path: string): string {
  if (!path) return path;
  let current = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(current), ...rest);
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      rest.unshift(basename(current));
      current = parent;
    }
  }
}
