// edit_file: replace one exact piece of text (or every occurrence with replace_all); undoable.
import { Type } from '@sinclair/typebox';
import { defineTool, ToolError, type ToolContext } from '../tool';
import { diffStats } from '../../workspace/diff-stats';
import { diffPreview } from './diff-preview';
import { readTextForEdit } from './file-content';
import { guarded, pathTarget } from './guarded-path';
import { journaledWrite } from './journaled-write';
import { applyEdit } from './text-edit';

const parameters = Type.Object({
  path: Type.String({ description: 'File to edit, relative to the project.' }),
  old_text: Type.String({
    description: 'Exact text to replace, including whitespace; must occur exactly once.',
  }),
  new_text: Type.String({ description: 'Replacement text.' }),
  replace_all: Type.Optional(
    Type.Boolean({ description: 'Replace every occurrence instead of exactly one.' }),
  ),
});

type EditArgs = { path: string; old_text: string; new_text: string; replace_all?: boolean };

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit a file by replacing old_text with new_text. old_text must match the file exactly (whitespace ' +
    'included) and occur exactly once unless replace_all is true; include a few surrounding lines to make ' +
    "it unique. The file's line endings (LF or CRLF) are kept. The person sees the diff before it is written.",
  parameters,
  effect: 'write',
  target: (args, ctx) => pathTarget(ctx, args.path, 'write'),
  async preview(args, ctx) {
    const planned = await plan(args, ctx);
    return diffPreview(planned.relative, planned.before, planned.after);
  },
  async execute(args, ctx) {
    const planned = await plan(args, ctx);
    await journaledWrite(ctx, planned.file, planned.after);
    const stats = diffStats(planned.before, planned.after);
    const times = planned.replaced === 1 ? '' : ` (${planned.replaced} occurrences)`;
    return `Edited ${planned.relative}${times}: +${stats.added} −${stats.removed}.`;
  },
});

async function plan(args: EditArgs, ctx: ToolContext) {
  const file = await guarded(ctx, args.path, 'write');
  const { relative } = file;
  const before = await readTextForEdit(file);
  if (before === undefined)
    throw new ToolError(`${relative} does not exist; use write_file to create it.`);
  const outcome = applyEdit(
    before,
    args.old_text,
    args.new_text,
    args.replace_all ?? false,
    relative,
  );
  if (!outcome.ok) throw new ToolError(outcome.message);
  return { file, relative, before, after: outcome.content, replaced: outcome.replaced };
}
