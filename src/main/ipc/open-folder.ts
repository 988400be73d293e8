// Turns a path from the window into the real path of an existing folder, or a clear error.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';

export async function resolveProjectFolder(folder: string): Promise<string> {
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
  return real;
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
