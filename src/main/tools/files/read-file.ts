// read_file: a window of lines with line numbers; binary files are described, not dumped.
import { Type } from '@sinclair/typebox';
import { readFileVerified, type ReadOutcome } from '../../workspace/verified-fs';
import { defineTool, ToolError } from '../tool';
import { guarded, pathTarget, verified } from './guarded-path';
import { decodeFile } from './text-decoding';

const DEFAULT_LINE_LIMIT = 400;
const MAX_LINE_LIMIT = 2000;
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;

const parameters = Type.Object({
  path: Type.String({ description: 'File to read, relative to the project.' }),
  offset: Type.Optional(
    Type.Integer({ minimum: 1, description: 'First line to show (1-based). Default 1.' }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LINE_LIMIT,
      description: `How many lines (default ${DEFAULT_LINE_LIMIT}).`,
    }),
  ),
});

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    `Read a text file in the project, with line numbers. Shows ${DEFAULT_LINE_LIMIT} lines from offset by default ` +
    `(limit up to ${MAX_LINE_LIMIT}); the footer says how to read on. Very long lines are cut. ` +
    'Binary files are described instead of shown. Use search to find where something is first.',
  parameters,
  effect: 'read',
  target: (args, ctx) => pathTarget(ctx, args.path, 'read'),
  async execute(args, ctx) {
    const { root, path, relative } = await guarded(ctx, args.path, 'read');
    const read = await verified(() => readFileVerified(root, path, { maxBytes: MAX_FILE_BYTES }));
    const decoded = decodeFile(fileBytes(read, relative));
    if (decoded.kind === 'binary') return `${relative}: ${decoded.description}; not shown.`;
    if (decoded.text === '') return `${relative}: (empty file)`;

    const lines = decoded.text.split(/\r?\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_LINE_LIMIT;
    if (offset > lines.length) {
      throw new ToolError(
        `${relative} has ${lines.length} lines; offset ${offset} is past the end.`,
      );
    }
    const last = Math.min(lines.length, offset - 1 + limit);
    const width = String(last).length;
    const body = lines.slice(offset - 1, last).map((line, i) => {
      const shown =
        line.length > MAX_LINE_CHARS
          ? `${line.slice(0, MAX_LINE_CHARS)}… (line cut, ${line.length} chars)`
          : line;
      return `${String(offset + i).padStart(width)}\t${shown}`;
    });
    const header = [`${relative} (lines ${offset}-${last} of ${lines.length})`];
    if (decoded.note) header.push(`note: ${decoded.note}`);
    const footer =
      last < lines.length
        ? [`… ${lines.length - last} more lines; read on with offset=${last + 1}.`]
        : [];
    return [...header, ...body, ...footer].join('\n');
  },
});

/** The bytes of a file, or the ToolError that says why there are none. */
function fileBytes(read: ReadOutcome, relative: string): Buffer {
  switch (read.kind) {
    case 'file':
      return read.bytes;
    case 'missing':
      throw new ToolError(`${relative} does not exist.`);
    case 'folder':
      throw new ToolError(`${relative} is a folder; use list_dir.`);
    case 'too-large':
      throw new ToolError(
        `${relative} is ${read.size} bytes, above the ${MAX_FILE_BYTES}-byte limit; use search to find the lines you need.`,
      );
    case 'symlink':
    case 'other':
      throw new ToolError(`${relative} is not a regular file.`);
  }
}
