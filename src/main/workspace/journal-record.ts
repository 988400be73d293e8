// One line of the undo journal (journal.jsonl), checked when the journal is loaded: a damaged or
// hand-edited line is skipped and reported, never applied. A blob name is a hex digest, so a
// tampered line cannot point a restore at a file outside the blob folder.
import { isAbsolute } from 'node:path';
import { z } from 'zod';

const imageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('absent') }),
  z.object({
    kind: z.literal('file'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 digest'),
    size: z.number().int().nonnegative(),
    mode: z.number().int().nonnegative(),
  }),
  z.object({ kind: z.literal('symlink'), target: z.string() }),
  z.object({ kind: z.literal('too-large'), size: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('other') }),
]);

const callId = z.string().min(1);
const absolutePath = z.string().refine(isAbsolute, 'not an absolute path');

export const journalLineSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('before'),
    seq: z.number().int().nonnegative(),
    callId,
    path: absolutePath,
    image: imageSchema,
    keepDir: absolutePath.optional(),
  }),
  z.object({ type: z.literal('after'), callId, path: absolutePath, image: imageSchema }),
  z.object({ type: z.literal('reverted'), callId }),
]);

export type JournalLine = z.infer<typeof journalLineSchema>;

export type ParsedJournalLine =
  | { readonly ok: true; readonly line: JournalLine }
  | { readonly ok: false; readonly reason: string };

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
  const parsed = journalLineSchema.safeParse(raw);
  if (parsed.success) return { ok: true, line: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `${where}${issue?.message ?? 'not a journal record'}`.slice(0, 200) };
}
