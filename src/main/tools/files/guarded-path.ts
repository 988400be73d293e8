// How a file tool turns the model's path into a checked real path (through the one guard), and
// how a path that could not be verified when opened becomes a refusal the model can read.
import { resolve } from 'node:path';
import { guardPath } from '../../workspace/path-guard';
import { openVerified, UnverifiedPathError, type VerifiedFile } from '../../workspace/verified-fs';
import { ToolError, type ToolContext, type ToolTarget } from '../tool';

export interface GuardedPath {
  /** Real path of the project folder: what the verified file functions take as root. */
  readonly root: string;
  readonly path: string;
  readonly relative: string;
}

/** The real path for `requested`, or a ToolError with the guard's reason. */
export async function guarded(
  ctx: ToolContext,
  requested: string,
  access: 'read' | 'write',
): Promise<GuardedPath> {
  const result = await guardPath(ctx.folder, requested, access, {
    untouchable: ctx.services.dataFolders ?? [],
  });
  if (!result.ok) throw new ToolError(`Refused: ${result.reason}.`);
  return { root: result.root, path: result.path, relative: result.relative };
}

/** Runs verified file work; an UnverifiedPathError becomes a ToolError saying so. */
export async function verified<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnverifiedPathError) throw new ToolError(`Refused: ${error.message}.`);
    throw error;
  }
}

/** What is at a checked path, seen through a verified open (a bare stat could be redirected). */
export function verifiedKind(file: GuardedPath): Promise<'file' | 'folder' | 'other' | 'missing'> {
  return verified(async () => {
    let opened: VerifiedFile;
    try {
      opened = await openVerified(file.root, file.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
      throw error;
    }
    await opened.handle.close();
    const { stats } = opened;
    return stats.isDirectory() ? 'folder' : stats.isFile() ? 'file' : 'other';
  });
}

/** The policy's view of a call: the requested path resolved against the folder. */
export function pathTarget(
  ctx: ToolContext,
  requested: string,
  access: 'read' | 'write',
): ToolTarget {
  return { kind: 'path', path: resolve(ctx.folder, requested), access };
}
