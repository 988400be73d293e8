// find_files: paths matching a glob (picomatch), honouring .gitignore.
import { Type } from '@sinclair/typebox';
import picomatch from 'picomatch';
import { defineTool } from '../tool';
import { guarded, pathTarget } from './guarded-path';
import { walkProject } from './walk-project';

const DEFAULT_MAX_RESULTS = 200;

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
    '.gitignore and .git are skipped. Folders are listed with a trailing "/" when the pattern matches them.',
  parameters,
  effect: 'read',
  target: (args, ctx) => pathTarget(ctx, args.path ?? '.', 'read'),
  async execute(args, ctx) {
    const { root, path: start, relative } = await guarded(ctx, args.path ?? '.', 'read');
    const matches = picomatch(args.pattern, { dot: true, basename: !args.pattern.includes('/') });
    const max = args.max_results ?? DEFAULT_MAX_RESULTS;
    const found: string[] = [];
    let leftOut = 0;
    for await (const entry of walkProject(root, start, { signal: ctx.signal })) {
      if (!matches(entry.relative)) continue;
      if (found.length >= max) {
        leftOut += 1;
        continue;
      }
      found.push(entry.type === 'dir' ? `${entry.relative}/` : entry.relative);
    }
    if (found.length === 0) return `No files match ${JSON.stringify(args.pattern)} in ${relative}.`;
    found.sort();
    if (leftOut > 0) found.push(`… ${leftOut} more not shown; use a narrower pattern or path.`);
    return found.join('\n');
  },
});
