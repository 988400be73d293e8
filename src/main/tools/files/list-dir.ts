// list_dir: what is in a folder, folders marked with a trailing `/`, optionally a few levels deep.
import type { Dirent } from 'node:fs';
import { Type } from '@sinclair/typebox';
import {
  openDirVerified,
  UnverifiedPathError,
  type VerifiedDir,
} from '../../workspace/verified-fs';
import { defineTool, ToolError } from '../tool';
import { guarded, pathTarget, verified } from './guarded-path';

const SKIPPED_BY_DEFAULT = new Set(['.git', 'node_modules']);
const MAX_ENTRIES = 500;

const parameters = Type.Object({
  path: Type.Optional(
    Type.String({ description: 'Folder to list, relative to the project. Default: the project.' }),
  ),
  depth: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 6,
      description: 'How many levels to descend (default 1).',
    }),
  ),
  include_all: Type.Optional(
    Type.Boolean({ description: 'Also descend into .git and node_modules (skipped by default).' }),
  ),
});

export const listDirTool = defineTool({
  name: 'list_dir',
  description:
    'List the entries of a folder in the project. Folders end with "/", symlinks show "-> target" (not followed), ' +
    'FIFOs, sockets and devices are marked. ' +
    `Use depth (1-6) to see nested levels. .git and node_modules are not descended into unless include_all is true. At most ${MAX_ENTRIES} entries are shown.`,
  parameters,
  effect: 'read',
  target: (args, ctx) => pathTarget(ctx, args.path ?? '.', 'read'),
  async execute(args, ctx) {
    const { root, path, relative } = await guarded(ctx, args.path ?? '.', 'read');
    const depth = args.depth ?? 1;
    const lines: string[] = [];
    const skipped = new Set<string>();
    let omitted = 0;

    // A subfolder that cannot be opened or read is named, not silently shown empty.
    const unreadable = (level: number, error: unknown): void => {
      lines.push(`${'  '.repeat(level - 1)}(cannot be read: ${whyUnreadable(error)})`);
    };

    // Each folder is opened and verified, and its children are reached through it (never by path).
    const dataFolders = ctx.services.dataFolders ?? [];
    // `at` is the real path of `dir`, to recognise Tandem's own data folder by its path.
    const visit = async (
      dir: VerifiedDir,
      at: string,
      prefix: string,
      level: number,
    ): Promise<void> => {
      const dirents = await dir.list().catch((error: unknown) => {
        if (level === 1) throw error;
        unreadable(level, error);
        return [];
      });
      dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of dirents) {
        if (ctx.signal.aborted) return;
        if (lines.length >= MAX_ENTRIES) {
          omitted += 1;
          continue;
        }
        const indent = '  '.repeat(level - 1);
        if (dirent.isSymbolicLink()) {
          const target = await dir.readlink(dirent.name).catch(() => '?');
          lines.push(`${indent}${prefix}${dirent.name} -> ${target}`);
        } else if (dirent.isDirectory() && dataFolders.includes(`${at}/${dirent.name}`)) {
          lines.push(`${indent}${prefix}${dirent.name}/ (Tandem's own data folder: not listed)`);
        } else if (dirent.isDirectory()) {
          const skip = !args.include_all && SKIPPED_BY_DEFAULT.has(dirent.name);
          lines.push(
            `${indent}${prefix}${dirent.name}/${skip && level < depth ? ' (not listed)' : ''}`,
          );
          if (skip) skipped.add(dirent.name);
          else if (level < depth) await visitChild(dir, at, dirent.name, level + 1);
        } else if (dirent.isFile()) {
          lines.push(`${indent}${prefix}${dirent.name}`);
        } else {
          // Listed by name only: nothing here opens a FIFO, socket or device.
          lines.push(`${indent}${prefix}${dirent.name} (${specialKind(dirent)})`);
        }
      }
    };

    const visitChild = async (
      parent: VerifiedDir,
      at: string,
      name: string,
      level: number,
    ): Promise<void> => {
      let child: VerifiedDir;
      try {
        child = await parent.child(name);
      } catch (error) {
        unreadable(level, error);
        return;
      }
      try {
        await visit(child, `${at}/${name}`, '', level);
      } finally {
        await child.close();
      }
    };

    try {
      await verified(async () => {
        const dir = await openDirVerified(root, path);
        try {
          await visit(dir, path, '', 1);
        } finally {
          await dir.close();
        }
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR')
        throw new ToolError(`${relative} is a file, not a folder; use read_file.`);
      if (code === 'ENOENT') throw new ToolError(`${relative} does not exist.`);
      throw error;
    }
    const notes: string[] = [];
    if (lines.length === 0) notes.push('(empty folder)');
    if (omitted > 0)
      notes.push(`… ${omitted} more entries not shown; list a subfolder or lower depth.`);
    if (skipped.size > 0 && depth > 1) {
      notes.push(
        `(${[...skipped].sort().join(' and ')} not descended into; pass include_all to list them)`,
      );
    }
    return [`${relative === '.' ? '.' : relative}/`, ...lines, ...notes].join('\n');
  },
});

function whyUnreadable(error: unknown): string {
  if (error instanceof UnverifiedPathError) return 'it changed while being listed';
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

function specialKind(dirent: Dirent): string {
  if (dirent.isFIFO()) return 'FIFO';
  if (dirent.isSocket()) return 'socket';
  if (dirent.isCharacterDevice()) return 'character device';
  if (dirent.isBlockDevice()) return 'block device';
  return 'special file';
}
