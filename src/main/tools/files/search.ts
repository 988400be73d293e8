// search: a regular expression (RE2: linear time) or literal across the project, honouring
// .gitignore, as `path:line: text`. The work runs in the scan worker, which reaches every file
// through a verified folder (walk-project.ts); this file checks the pattern and the path, hands
// over the job, and words the report, limits included.
import { Type } from '@sinclair/typebox';
import { defineTool, ToolError } from '../tool';
import type { ContentSearchReport } from './content-search';
import { guarded, pathTarget, verifiedKind } from './guarded-path';
import { describeBounds } from './scan-bounds';
import { runContentSearch } from './parallel-search';
import { compileSearchPattern } from './search-pattern';

const DEFAULT_MAX_RESULTS = 100;
/** Files whose content is searched in one call; past it the walk only counts. */
const MAX_FILES = 100_000;
const MAX_COUNTED = 1_000_000;
/** Matches past those shown are counted up to this many; then only files with matches. */
const MAX_COUNTED_MATCHES = 10_000;
const TIME_LIMIT_MS = 30_000;
/** The worker's own deadline should always answer first; this is the backstop. */
const HARD_LIMIT_MS = TIME_LIMIT_MS + 10_000;

const parameters = Type.Object({
  pattern: Type.String({
    minLength: 1,
    description:
      'A regular expression in RE2 syntax (JavaScript-like; no lookaround or backreferences), or plain text with literal=true.',
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
    'Search file contents in the project, line by line, for a regular expression (RE2 syntax: like ' +
    "JavaScript's but without lookaround or backreferences) or plain text with literal=true. Files " +
    'ignored by .gitignore, .git and binary files are skipped; symlinks are not followed; files of any ' +
    'size are searched. Results are "path:line: text"; notes at the end say what was left out or not searched.',
  parameters,
  effect: 'read',
  target: (args, ctx) => pathTarget(ctx, args.path ?? '.', 'read'),
  async execute(args, ctx) {
    const checked = await guarded(ctx, args.path ?? '.', 'read');
    const { root, path: start, relative } = checked;
    const options = { literal: args.literal ?? false, caseSensitive: args.case_sensitive ?? true };
    const compiled = compileSearchPattern(args.pattern, options);
    if (!compiled.ok) throw new ToolError(compiled.message);
    const kind = await verifiedKind(checked);
    if (kind === 'missing') throw new ToolError(`${relative} does not exist.`);
    const report = await runContentSearch(
      {
        kind: 'content',
        folder: root,
        start,
        startRelative: relative,
        startIsFile: kind !== 'folder',
        skip: ctx.services.dataFolders ?? [],
        pattern: args.pattern,
        ...options,
        ...(args.glob ? { glob: args.glob } : {}),
        maxResults: args.max_results ?? DEFAULT_MAX_RESULTS,
        countLimit: MAX_COUNTED_MATCHES,
        limits: {
          maxItems: MAX_FILES,
          maxCounted: MAX_COUNTED,
          deadline: Date.now() + TIME_LIMIT_MS,
        },
      },
      { signal: ctx.signal, hardTimeoutMs: HARD_LIMIT_MS },
    );
    return formatSearchReport(report, args.pattern, relative);
  },
});

/** The model's view of a report: matches first, then one note per thing left out. */
export function formatSearchReport(
  report: ContentSearchReport,
  pattern: string,
  where: string,
): string {
  const lines = report.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
  if (lines.length === 0) lines.push(`No matches for ${JSON.stringify(pattern)} in ${where}.`);
  if (report.leftOut > 0) {
    const more = report.countingStopped
      ? `more than ${report.leftOut.toLocaleString('en-US')} more matches (counting stopped there)`
      : `${report.leftOut.toLocaleString('en-US')} more matches`;
    lines.push(
      `… ${more} in ${report.filesWithLeftOut.length.toLocaleString('en-US')} file(s) not shown; narrow the pattern, path or glob.`,
    );
  }
  return [
    ...lines,
    ...describeBounds(report.bounds, {
      verb: 'searched',
      noun: 'files',
      limitSeconds: TIME_LIMIT_MS / 1000,
    }),
  ].join('\n');
}
