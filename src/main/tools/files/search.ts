// search: a regex or literal across the project (honouring .gitignore), as `path:line: text`.
import { Type } from '@sinclair/typebox';
import picomatch from 'picomatch';
import { readFileVerified, type ReadOutcome } from '../../workspace/verified-fs';
import { defineTool, ToolError } from '../tool';
import { guarded, pathTarget, verified } from './guarded-path';
import { decodeFile } from './text-decoding';
import { walkProject } from './walk-project';

const DEFAULT_MAX_RESULTS = 100;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Longer lines are not matched: it bounds the work a pathological regex can cause. */
const MAX_MATCH_LINE = 4000;
const MAX_SHOWN_CHARS = 300;
const MAX_FILES = 50_000;

const parameters = Type.Object({
  pattern: Type.String({
    minLength: 1,
    description: 'A JavaScript regular expression, or plain text with literal=true.',
  }),
  path: Type.Optional(
    Type.String({
      description: 'Folder or file to search, relative to the project. Default: the project.',
    }),
  ),
  literal: Type.Optional(
    Type.Boolean({ description: 'Treat pattern as plain text (default false).' }),
  ),
  case_sensitive: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  glob: Type.Optional(
    Type.String({ description: 'Only files whose path matches this glob, e.g. "**/*.ts".' }),
  ),
  max_results: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: `Default ${DEFAULT_MAX_RESULTS}.` }),
  ),
});

export const searchTool = defineTool({
  name: 'search',
  description:
    'Search file contents in the project for a regular expression (or plain text with literal=true). ' +
    'Files ignored by .gitignore, .git, binary files and files over 2 MB are skipped. Results are ' +
    '"path:line: text"; the last line says how many more matches were left out.',
  parameters,
  effect: 'read',
  target: (args, ctx) => pathTarget(ctx, args.path ?? '.', 'read'),
  async execute(args, ctx) {
    const { root, path: start, relative } = await guarded(ctx, args.path ?? '.', 'read');
    const regex = compile(args.pattern, args.literal ?? false, args.case_sensitive ?? true);
    const matchesGlob = args.glob
      ? picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') })
      : undefined;
    const max = args.max_results ?? DEFAULT_MAX_RESULTS;
    const results: string[] = [];
    let leftOut = 0;
    const filesWithLeftOut = new Set<string>();
    let skippedLarge = 0;
    let unverified = 0;

    const first = await verified(() => readFileVerified(root, start, { maxBytes: MAX_FILE_BYTES }));
    if (first.kind === 'missing') throw new ToolError(`${relative} does not exist.`);
    const files =
      first.kind === 'folder'
        ? await collectFiles(root, start, ctx.signal)
        : [{ relative, absolute: start, read: first }];
    for (const file of files) {
      if (ctx.signal.aborted) break;
      if (matchesGlob && !matchesGlob(file.relative)) continue;
      // Every file is opened and verified: one swapped for a symlink out is skipped, never read.
      const read = 'read' in file ? file.read : await readOrUndefined(root, file.absolute);
      if (read === undefined) {
        unverified += 1;
        continue;
      }
      if (read.kind === 'too-large') skippedLarge += 1;
      if (read.kind !== 'file') continue;
      const decoded = decodeFile(read.bytes);
      if (decoded.kind !== 'text') continue;
      const lines = decoded.text.split(/\r?\n/);
      for (let i = 0; i < lines.length; i += 1) {
        const line = lines[i] as string;
        if (line.length > MAX_MATCH_LINE) continue;
        regex.lastIndex = 0;
        if (!regex.test(line)) continue;
        if (results.length < max) {
          const text = line.trim();
          results.push(
            `${file.relative}:${i + 1}: ${text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text}`,
          );
        } else {
          leftOut += 1;
          filesWithLeftOut.add(file.relative);
        }
      }
    }
    const notes: string[] = [];
    if (leftOut > 0) {
      notes.push(
        `… ${leftOut} more matches in ${filesWithLeftOut.size} file(s) not shown; narrow the pattern, path or glob.`,
      );
    }
    if (skippedLarge > 0) notes.push(`(${skippedLarge} file(s) over 2 MB skipped)`);
    if (unverified > 0)
      notes.push(`(${unverified} file(s) could not be opened or verified; skipped)`);
    if (results.length === 0) {
      return [`No matches for ${JSON.stringify(args.pattern)} in ${relative}.`, ...notes].join(
        '\n',
      );
    }
    return [...results, ...notes].join('\n');
  },
});

function compile(pattern: string, literal: boolean, caseSensitive: boolean): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern;
  const flags = caseSensitive ? '' : 'i';
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    // Unicode mode rejects some escapes models write out of habit (`\-`); try the legacy syntax.
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new ToolError(
      `Invalid regular expression: ${(error as Error).message}. Use literal=true for plain text.`,
    );
  }
}

/** A file's content; undefined when it could not be opened or verified (it is skipped). */
function readOrUndefined(root: string, path: string): Promise<ReadOutcome | undefined> {
  return readFileVerified(root, path, { maxBytes: MAX_FILE_BYTES }).catch(() => undefined);
}

async function collectFiles(folder: string, start: string, signal: AbortSignal) {
  const files: { relative: string; absolute: string }[] = [];
  for await (const entry of walkProject(folder, start, { signal, maxEntries: MAX_FILES })) {
    if (entry.type === 'file') files.push(entry);
  }
  return files;
}
