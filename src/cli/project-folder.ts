// The project folder a CLI command works in: it must exist and be a folder, and it is refused
// like the window refuses it (/, the home folder, system folders, Tandem's data), since the agent
// and MCP servers read every file of it without asking.
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { realDataFolder } from '../main/store/data-dir';
import { tandemFolders } from '../main/store/tandem-folders';
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
    home: realDataFolder(home),
    // Its own data, the window's and the code cache (which the built CLI runs as code), each
    // where it is or will be, through links on the way there.
    dataFolders: tandemFolders(dataDir, io.env, home),
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
