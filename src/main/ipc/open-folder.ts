// Turns a path from the window or the folder dialog into the real path of an existing folder that
// may be a project, or a clear error. Symlinks are resolved before the rules are applied, so a
// link to /etc is refused as /etc.
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { projectFolderRefusal } from '../workspace/project-folder-rules';

export interface ProjectFolderPolicy {
  readonly platform: NodeJS.Platform;
  /** The person's home folder (resolved here). */
  readonly home: string;
  /** Tandem's own data folders (resolved here; they need not exist yet). */
  readonly dataFolders: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const WHY =
  "The agent may read every file of its project folder without asking, so Tandem opens only a project's own folder.";

export async function resolveProjectFolder(
  folder: string,
  policy: ProjectFolderPolicy,
): Promise<string> {
  if (!isAbsolute(folder)) {
    throw new Error(`Cannot open "${folder}": the path must be absolute.`);
  }
  let real: string;
  try {
    real = await realpath(folder);
  } catch (error) {
    throw new Error(`Cannot open "${folder}": ${describeFsError(error)}.`);
  }
  const info = await stat(real);
  if (!info.isDirectory()) {
    throw new Error(`Cannot open "${folder}": it is a file, not a folder.`);
  }
  const [home, ...dataFolders] = await Promise.all(
    [policy.home, ...policy.dataFolders].map(realOrNearest),
  );
  const refusal = projectFolderRefusal(real, {
    platform: policy.platform,
    home: home ?? '',
    dataFolders,
    ...(policy.env ? { env: policy.env } : {}),
  });
  if (refusal) {
    const leads = resolve(folder) === real ? '' : ` (it leads to ${real})`;
    throw new Error(`Cannot open "${folder}"${leads}: ${refusal}. ${WHY}`);
  }
  return real;
}

/** The real path of `path`, or of its deepest existing ancestor with the rest appended. */
async function realOrNearest(path: string): Promise<string> {
  if (!path) return '';
  let current = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await realpath(current), ...rest);
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

function describeFsError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : '';
  switch (code) {
    case 'ENOENT':
      return 'no such folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
