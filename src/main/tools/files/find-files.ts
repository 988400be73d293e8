// find_files: paths matching a glob (picomatch), honouring .gitignore. The walk runs in the
// scan worker and lists each folder through a verified descriptor (walk-project.ts); limits that
// were hit are said at the end.
import { Type } from '@sinclair/typebox';
import { defineTool, ToolError } from '../tool';
import { guarded, pathTarget, verifiedKind } from './guarded-path';
import { describeBounds } from './scan-bounds';
import { runInScanWorker } from './scan-worker-client';

const DEFAULT_MAX_RESULTS = 200;
/** Entries compared with the pattern in one call; past it the walk only counts. */
const MAX_ENTRIES = 500_000;
const MAX_COUNTED = 2_000_000;
const TIME_LIMIT_MS = 30_000;
const HARD_LIMIT_MS = TIME_LIMIT_MS + 10_000;

const parameters = Type.Object({
  pattern: Type.String({
    minLength: 1,
    description:
      'Glob such as "**/*.test.ts" or "src/**/index.*". Without a "/" it matches file names anywhere.',
  }),
  path: Type.Optional(
    Type.String({
      description: 'Folder to look in, relative to the project. Default: the project.',
    }),
  ),
  max_results: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2000, description: `Default ${DEFAULT_MAX_RESULTS}.` }),
  ),
});

export const findFilesTool = defineTool({
  name: 'find_files',
  description:
    'Find files in the project by glob pattern (paths relative to the project, sorted). Files ignored by ' +
    '.gitignore and .git are skipped; symlinks are listed but not followed. Folders are listed with a ' +
    'trailing "/" when the pattern matches them.',
  parameters,
  effect: 'read',
  target: (args, ctx) => pathTarget(ctx, args.path ?? '.', 'read'),
  async execute(args, ctx) {
    const checked = await guarded(ctx, args.path ?? '.', 'read');
    const { root, path: start, relative } = checked;
    const kind = await verifiedKind(checked);
    if (kind === 'missing') throw new ToolError(`${relative} does not exist.`);
    if (kind !== 'folder') throw new ToolError(`${relative} is a file, not a folder.`);
    const report = await runInScanWorker(
      {
        kind: 'names',
        folder: root,
        start,
        skip: ctx.services.dataFolders ?? [],
        pattern: args.pattern,
        maxResults: args.max_results ?? DEFAULT_MAX_RESULTS,
        limits: {
          maxItems: MAX_ENTRIES,
          maxCounted: MAX_COUNTED,
          deadline: Date.now() + TIME_LIMIT_MS,
        },
      },
      { signal: ctx.signal, hardTimeoutMs: HARD_LIMIT_MS },
    );
    const lines = [...report.found];
    if (lines.length === 0)
      lines.push(`No files match ${JSON.stringify(args.pattern)} in ${relative}.`);
    if (report.leftOut > 0) {
      lines.push(`… ${report.leftOut} more not shown; use a narrower pattern or path.`);
    }
    const notes = describeBounds(report.bounds, {
      verb: 'looked at',
      noun: 'entries',
      limitSeconds: TIME_LIMIT_MS / 1000,
    });
    return [...lines, ...notes].join('\n');
  },
});
