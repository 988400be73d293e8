// How a file tool turns the model's path into a checked real path (through the one guard).
import { resolve } from 'node:path';
import { guardPath } from '../../workspace/path-guard';
import { ToolError, type ToolContext, type ToolTarget } from '../tool';

export interface GuardedPath {
  readonly path: string;
  readonly relative: string;
}

/** The real path for `requested`, or a ToolError with the guard's reason. */
export async function guarded(
  ctx: ToolContext,
  requested: string,
  access: 'read' | 'write',
): Promise<GuardedPath> {
  const result = await guardPath(ctx.folder, requested, access);
  if (!result.ok) throw new ToolError(`Refused: ${result.reason}.`);
  return { path: result.path, relative: result.relative };
}

/** The policy's view of a call: the requested path resolved against the folder. */
export function pathTarget(
  ctx: ToolContext,
  requested: string,
  access: 'read' | 'write',
): ToolTarget {
  return { kind: 'path', path: resolve(ctx.folder, requested), access };
}
