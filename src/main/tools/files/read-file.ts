// read_file: a window of lines with line numbers; binary files are described, not dumped.
// Files up to 10 MB are read whole (exact line count, encoding notes); bigger ones are streamed
// in the scan worker to the window and no further, so any size can be read in bounded memory.
// Both ways the file is opened and verified first (verified-fs), never read by a bare path.
import { Type } from '@sinclair/typebox';
import { readFileVerified, type ReadOutcome } from '../../workspace/verified-fs';
import { defineTool, ToolError } from '../tool';
import { guarded, pathTarget, verified } from './guarded-path';
import type { LineWindowReport, WindowLine } from './line-window';
import { runInScanWorker } from './scan-worker-client';
import { decodeFile } from './text-decoding';

const DEFAULT_LINE_LIMIT = 400;
const MAX_LINE_LIMIT = 2000;
const WHOLE_FILE_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;
const TIME_LIMIT_MS = 60_000;

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
    `(limit up to ${MAX_LINE_LIMIT}); the footer says how to read on. Files of any size can be read this way. ` +
    'Very long lines are cut. Binary files are described instead of shown. Use search to find where something is first.',
  parameters,
  effect: 'read',
  target: (args, ctx) => pathTarget(ctx, args.path, 'read'),
  async execute(args, ctx) {
    const { root, path, relative } = await guarded(ctx, args.path, 'read');
    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_LINE_LIMIT;
    const read = await verified(() => readFileVerified(root, path, { maxBytes: WHOLE_FILE_BYTES }));
    if (read.kind === 'too-large') {
      // The worker opens and verifies the file again: a descriptor does not cross threads.
      const report = await runInScanWorker(
        {
          kind: 'window',
          root,
          path,
          offset,
          limit,
          maxLineChars: MAX_LINE_CHARS,
          deadline: Date.now() + TIME_LIMIT_MS,
        },
        { signal: ctx.signal, hardTimeoutMs: TIME_LIMIT_MS + 10_000 },
      );
      return formatWindow(report, relative, offset, read.size);
    }
    const decoded = decodeFile(fileBytes(read, relative));
    if (decoded.kind === 'binary') return `${relative}: ${decoded.description}; not shown.`;
    if (decoded.text === '') return `${relative}: (empty file)`;

    const lines = decoded.text.split(/\r?\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    if (offset > lines.length) {
      throw new ToolError(
        `${relative} has ${lines.length} lines; offset ${offset} is past the end.`,
      );
    }
    const last = Math.min(lines.length, offset - 1 + limit);
    const shown = lines.slice(offset - 1, last).map((line, i): WindowLine => {
      const number = offset + i;
      return line.length > MAX_LINE_CHARS
        ? { number, text: line.slice(0, MAX_LINE_CHARS), cutFrom: line.length }
        : { number, text: line };
    });
    const header = [`${relative} (lines ${offset}-${last} of ${lines.length})`];
    if (decoded.note) header.push(`note: ${decoded.note}`);
    const footer =
      last < lines.length
        ? [`… ${lines.length - last} more lines; read on with offset=${last + 1}.`]
        : [];
    return [...header, ...numbered(shown), ...footer].join('\n');
  },
});

/** The bytes of a file, or the ToolError that says why there are none. */
function fileBytes(read: Exclude<ReadOutcome, { kind: 'too-large' }>, relative: string): Buffer {
  switch (read.kind) {
    case 'file':
      return read.bytes;
    case 'missing':
      throw new ToolError(`${relative} does not exist.`);
    case 'folder':
      throw new ToolError(`${relative} is a folder; use list_dir.`);
    case 'symlink':
    case 'other':
      throw new ToolError(`${relative} is not a regular file.`);
  }
}

function formatWindow(
  report: LineWindowReport,
  relative: string,
  offset: number,
  size: number,
): string {
  const megabytes = `${(size / (1024 * 1024)).toFixed(1)} MB`;
  switch (report.status) {
    case 'unreadable':
      throw new ToolError(`${relative} ${report.message}.`);
    case 'binary':
      return `${relative}: binary file (${report.format}), ${size} bytes; not shown.`;
    case 'past-end':
      throw new ToolError(
        `${relative} has ${report.totalLines} lines; offset ${offset} is past the end.`,
      );
    case 'time-limit':
      throw new ToolError(
        `reading ${relative} (${megabytes}) reached only line ${report.reachedLine} within ${TIME_LIMIT_MS / 1000} s; ` +
          'use search to find the line numbers you need, then read there.',
      );
    case 'ok': {
      const last = report.lines[report.lines.length - 1]?.number ?? offset;
      const header = [
        report.totalLines === undefined
          ? `${relative} (lines ${offset}-${last} of a ${megabytes} file; read in a stream, so the total line count is not known)`
          : `${relative} (lines ${offset}-${last} of ${report.totalLines})`,
      ];
      if (report.encoding !== 'utf8')
        header.push(`note: ${report.encoding === 'utf16le' ? 'UTF-16LE' : 'UTF-16BE'} file`);
      if (report.invalidUtf8) {
        header.push(
          'note: not valid UTF-8: invalid byte sequences are shown as \uFFFD (the file may use another encoding such as Latin-1)',
        );
      }
      const footer =
        report.totalLines === undefined
          ? [`… more lines follow; read on with offset=${last + 1}.`]
          : last < report.totalLines
            ? [`… ${report.totalLines - last} more lines; read on with offset=${last + 1}.`]
            : [];
      return [...header, ...numbered(report.lines), ...footer].join('\n');
    }
  }
}

/** `number<TAB>text`, numbers right-aligned; cut lines say how long they were. */
function numbered(lines: readonly WindowLine[]): string[] {
  const width = String(lines[lines.length - 1]?.number ?? 1).length;
  return lines.map((line) => {
    const cut =
      line.cutFrom === undefined
        ? ''
        : line.cutFrom === 'long'
          ? '… (line cut; it is longer than 4 MB)'
          : `… (line cut, ${line.cutFrom} chars)`;
    return `${String(line.number).padStart(width)}\t${line.text}${cut}`;
  });
}
