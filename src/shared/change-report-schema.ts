// The ChangeReport of a `tool-result` event as a schema, for events read back from a transcript:
// a report that does not fit is not trusted (the window draws file names and diffs from it).
import { z } from 'zod';
import type { ChangeReport, ChangeStatus, FileChangeReport } from './change-report';
import { lazyValue } from './lazy-value';

/** Built on first use (lazy-value.ts), with the event schema that holds it. */
function buildChangeReportSchema() {
  const count = z.number().int().nonnegative();
  const size = z.number().nonnegative();

  const fileChangeSchema = z.object({
    path: z.string(),
    status: z.enum(['added', 'modified', 'deleted', 'type-changed', 'mode-changed']),
    added: count,
    removed: count,
    content: z.enum(['text', 'binary', 'big', 'symlink', 'none']),
    sizeBefore: size.optional(),
    sizeAfter: size.optional(),
    diff: z.string(),
  });

  const changeReportSchema = z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('tracked'),
      files: z.array(fileChangeSchema),
      revertable: z.boolean(),
      notTracked: z.array(z.string()),
      recovered: z.boolean().optional(),
    }),
    z.object({ kind: z.literal('not-tracked'), reason: z.string() }),
    z.object({ kind: z.literal('unknown'), reason: z.string() }),
  ]);
  return { changeReportSchema, fileChangeSchema };
}

const schemas = lazyValue(buildChangeReportSchema);
export const changeReportSchema = (): ReturnType<
  typeof buildChangeReportSchema
>['changeReportSchema'] => schemas().changeReportSchema;

// As with the event schema: zod drops keys it does not name, so each shape must name exactly the
// keys of its type, what it gives must be a ChangeReport, and every status and content kind
// of the type must pass.
type Built = ReturnType<typeof buildChangeReportSchema>;
type Inferred = z.infer<Built['changeReportSchema']>;
type InferredFile = z.infer<Built['fileChangeSchema']>;
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : false;
type Covers<Wide, Narrow> = [Wide] extends [Narrow] ? true : false;
type Checks =
  | Covers<Inferred, ChangeReport>
  | SameKeys<FileChangeReport, InferredFile>
  | Covers<ChangeStatus, InferredFile['status']>
  | Covers<FileChangeReport['content'], InferredFile['content']>
  | {
      [K in ChangeReport['kind']]: SameKeys<
        Extract<ChangeReport, { kind: K }>,
        Extract<Inferred, { kind: K }>
      >;
    }[ChangeReport['kind']];
export const CHANGE_REPORT_SCHEMA_KEYS_MATCH: Checks extends true ? true : never = true;
