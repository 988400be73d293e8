// write_file: create or overwrite a whole file, atomically, keeping its mode; undoable.
import { Type } from '@sinclair/typebox';
import { defineTool, ToolError } from '../tool';
import { diffStats } from '../../workspace/diff-stats';
import { countLines, diffPreview } from './diff-preview';
import { readTextForEdit } from './file-content';
import { guarded, pathTarget, type GuardedPath } from './guarded-path';
import { journaledWrite } from './journaled-write';

const parameters = Type.Object({
  path: Type.String({
    description: 'File to write, relative to the project. Missing folders are created.',
  }),
  content: Type.String({ description: 'The complete new content of the file.' }),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file, or replace the whole content of an existing one. Missing parent folders are created. ' +
    'For a small change to an existing file prefer edit_file. The person sees the diff before it is written.',
  parameters,
  effect: 'write',
  editable: 'content',
  target: (args, ctx) => pathTarget(ctx, args.path, 'write'),
  async preview(args, ctx) {
    const file = await guarded(ctx, args.path, 'write');
    return diffPreview(file.relative, await readTextForPreview(file), args.content);
  },
  async execute(args, ctx) {
    const file = await guarded(ctx, args.path, 'write');
    const { relative } = file;
    const before = await readTextForPreview(file);
    await journaledWrite(ctx, file, args.content);
    if (before === undefined) return `Created ${relative} (${countLines(args.content)} lines).`;
    const stats = diffStats(before, args.content);
    return `Wrote ${relative} (+${stats.added} −${stats.removed}).`;
  },
});

/** The old text for the diff; a binary file being replaced shows as a note instead. */
async function readTextForPreview(file: GuardedPath): Promise<string | undefined> {
  try {
    return await readTextForEdit(file);
  } catch (error) {
    if (error instanceof ToolError && /binary|UTF-8/.test(error.message))
      return `(${error.message})\n`;
    throw error;
  }
}
