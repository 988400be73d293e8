// Schemas for every IPC payload. Main validates each call against these before anything runs:
// the window is untrusted input (DESIGN.md §1). zod is plain TypeScript, so it may live here.
import { z } from 'zod';
import type { TandemInvokeMethod } from './api';

const id = z.string().min(1).max(200);
const path = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !s.includes('\0'), 'must not contain NUL bytes');

export const approvalAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('allow-once') }).strict(),
  z.object({ kind: z.literal('allow-session') }).strict(),
  z.object({ kind: z.literal('allow-always') }).strict(),
  z.object({ kind: z.literal('allow-for'), minutes: z.number().int().min(1).max(24 * 60) }).strict(),
  z.object({ kind: z.literal('deny') }).strict(),
  z.object({ kind: z.literal('deny-with-note'), note: z.string().min(1).max(10_000) }).strict(),
]);

/** Argument tuples per method. */
export const ipcArgSchemas = {
  getAppInfo: z.tuple([]),
  ping: z.tuple([z.string().max(10_000)]),
  chooseFolder: z.tuple([]),
  openFolder: z.tuple([path]),
  recentFolders: z.tuple([]),
  getProviderStatus: z.tuple([]),
  startRun: z.tuple([z.string().min(1).max(200_000)]),
  stopRun: z.tuple([id]),
  answerApproval: z.tuple([id, z.string().min(1).max(200), approvalAnswerSchema]),
} satisfies Record<TandemInvokeMethod, z.ZodType>;
