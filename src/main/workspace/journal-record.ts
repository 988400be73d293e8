// The lines of the undo journal (journal.jsonl). Every line read back is checked against these
// schemas: a line that does not fit (torn by a crash, `null`, hand-edited) is skipped and reported,
// never applied. A content id is a hex digest, so a tampered line cannot point a restore at a file
// outside the object store; every path is absolute (and is verified again before undo uses it).
//
// Write-ahead order (issue 10 item 6):
//   file tools   write-intent (before-image stored, planned hash, temp name) → rename → write-done
//   commands     command-start (baseline persisted) → command runs → command-end (before/after)
//   undo         revert-start (temp names) → restores → reverted
// Reconcile on the next open finishes or rolls back whatever has an intent and no completion.
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';

/** Built on first use (lazy-value.ts): when a journal is read back (undo, reconcile). */
const schemas = lazyValue(() => {
  const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 digest');

  const fileImageSchema = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('absent') }),
    z.object({
      kind: z.literal('file'),
      sha256,
      size: z.number().int().nonnegative(),
      mode: z.number().int().min(0).max(0o7777),
    }),
    z.object({ kind: z.literal('symlink'), target: z.string() }),
    z.object({ kind: z.literal('too-large'), size: z.number().int().nonnegative() }),
    z.object({ kind: z.literal('other') }),
  ]);

  const path = z.string().max(8192).refine(isAbsolute, 'not an absolute path');
  const callId = z.string().min(1).max(500);
  const seq = z.number().int().nonnegative();

  const commandFileSchema = z.object({
    path,
    before: fileImageSchema,
    after: fileImageSchema,
    keepDir: path.optional(),
  });

  const journalRecordSchema = z.discriminatedUnion('type', [
    // Written by versions before the write-ahead journal, and still by recordBefore/recordAfter.
    z.object({
      type: z.literal('before'),
      seq,
      callId,
      path,
      image: fileImageSchema,
      keepDir: path.optional(),
    }),
    z.object({ type: z.literal('after'), callId, path, image: fileImageSchema }),
    z.object({
      type: z.literal('write-intent'),
      seq,
      callId,
      path,
      before: fileImageSchema,
      planned: z.object({ sha256, size: z.number().int().nonnegative() }),
      temp: path,
      keepDir: path.optional(),
    }),
    z.object({ type: z.literal('write-done'), callId, path, after: fileImageSchema }),
    /** Reconcile found the file as it was before: the write never happened. */
    z.object({ type: z.literal('write-abandoned'), callId, path }),
    z.object({ type: z.literal('command-start'), seq, callId, at: z.number() }),
    z.object({
      type: z.literal('command-end'),
      callId,
      files: z.array(commandFileSchema),
      notTracked: z.array(z.string()).default([]),
      /** Changes measured by reconcile after a crash during the command. */
      recovered: z.boolean().optional(),
      /** The command's changes could not be tracked (cap, error): nothing to undo. */
      untracked: z.string().optional(),
    }),
    z.object({ type: z.literal('revert-start'), callId, temps: z.array(path) }),
    z.object({ type: z.literal('reverted'), callId }),
    z.object({ type: z.literal('revert-interrupted'), callId }),
  ]);
  return { journalRecordSchema, commandFileSchema };
});

type Schemas = ReturnType<typeof schemas>;
export type JournalRecord = z.infer<Schemas['journalRecordSchema']>;
export type CommandFile = z.infer<Schemas['commandFileSchema']>;

export type ParsedJournalLine =
  | { readonly ok: true; readonly line: JournalRecord }
  | { readonly ok: false; readonly reason: string };

/** Parses one line: the record, or why it is not one (a short sentence). */
export function parseJournalLine(text: string): ParsedJournalLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON (a line cut short by a crash?)' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: 'not a journal record' };
  }
  const parsed = schemas().journalRecordSchema.safeParse(raw);
  if (parsed.success) return { ok: true, line: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `${where}${issue?.message ?? 'not a journal record'}`.slice(0, 200) };
}
