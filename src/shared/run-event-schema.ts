// The RunEvent union as a schema, for events read back from disk (a transcript line may be torn,
// hand-edited or written by a buggy build): one that does not fit is skipped, never trusted.
import { z } from 'zod';
import { changeReportSchema } from './change-report-schema';
import type { RunEvent } from './events';
import { approvalAnswerSchema, editedArgsSchema } from './ipc-schemas';
import { lazyValue } from './lazy-value';
import {
  MAX_SHOWN_IMAGE_BYTES,
  MAX_SHOWN_IMAGES,
  SHOWN_IMAGE_BASE64,
  SHOWN_IMAGE_TYPES,
  TOOL_EFFECTS,
  type ToolEffect,
} from './tool-types';

/** Built on first use (lazy-value.ts): only a process that reads transcripts back needs it. */
function buildEventSchema() {
  const effect = z.enum(TOOL_EFFECTS as [ToolEffect, ...ToolEffect[]]);
  const runId = z.string();
  const callId = z.string();
  const strings = z.array(z.string());

  const usageSchema = z.object({
    promptTokens: z.number(),
    completionTokens: z.number(),
    totalTokens: z.number(),
    cachedTokens: z.number().optional(),
  });

  const usageTotalsSchema = z.object({
    requests: z.number(),
    promptTokens: z.number(),
    cachedTokens: z.number(),
    completionTokens: z.number(),
    costUsd: z.number().optional(),
  });

  /** An image as main lets one through (mcp-result.ts): a drawable type, bounded base64. */
  const imageSchema = z.object({
    mimeType: z.enum(SHOWN_IMAGE_TYPES),
    data: z
      .string()
      .max(Math.ceil(MAX_SHOWN_IMAGE_BYTES / 3) * 4)
      .regex(SHOWN_IMAGE_BASE64),
  });

  const previewSchema = z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('diff'),
      path: z.string(),
      diff: z.string(),
      summary: z.string(),
      isNewFile: z.boolean(),
    }),
    z.object({
      kind: z.literal('command'),
      command: z.string(),
      cwd: z.string(),
      parts: z.array(
        z.object({
          text: z.string(),
          argv: strings,
          safe: z.boolean(),
          reasons: strings,
          coverable: z.boolean().optional(),
        }),
      ),
      sandbox: z.object({
        kind: z.enum(['bwrap', 'sandbox-exec', 'none']),
        available: z.boolean(),
        description: z.string(),
      }),
    }),
    z.object({ kind: z.literal('url'), url: z.string(), method: z.string() }),
    z.object({ kind: z.literal('text'), text: z.string() }),
  ]);

  const eventSchema = z.discriminatedUnion('type', [
    z.object({
      type: z.literal('run-started'),
      runId,
      sessionId: z.string(),
      task: z.string(),
      at: z.number(),
    }),
    z.object({ type: z.literal('assistant-delta'), runId, text: z.string() }),
    z.object({ type: z.literal('assistant-message'), runId, text: z.string() }),
    z.object({
      type: z.literal('tool-call-started'),
      runId,
      callId,
      name: z.string(),
      args: z.unknown(),
      effect: z.union([effect, z.literal('unknown')]),
      at: z.number(),
    }),
    z.object({
      type: z.literal('permission-decided'),
      runId,
      callId,
      decision: z.enum(['run', 'ask', 'refuse']),
      reasons: strings,
      at: z.number().optional(),
    }),
    z.object({
      type: z.literal('approval-requested'),
      runId,
      requestId: z.string(),
      callId,
      name: z.string(),
      args: z.unknown(),
      argsHash: z.string(),
      effect,
      preview: previewSchema,
      reasons: strings,
      storable: strings.optional(),
      editable: z.enum(['command', 'content']).optional(),
      at: z.number(),
    }),
    z.object({
      type: z.literal('approval-resolved'),
      runId,
      requestId: z.string(),
      callId,
      answer: approvalAnswerSchema(),
      by: z.enum(['person', 'stop', 'closed', 'no-tty', 'rule']),
      at: z.number(),
      edited: editedArgsSchema().optional(),
    }),
    z.object({ type: z.literal('tool-output'), runId, callId, chunk: z.string() }),
    z.object({
      type: z.literal('tool-result'),
      runId,
      callId,
      ok: z.boolean(),
      output: z.string(),
      durationMs: z.number(),
      stopped: z.boolean().optional(),
      provenance: z.string().optional(),
      changes: changeReportSchema().optional(),
      taintedBy: z.string().optional(),
      secrets: z.array(z.object({ kind: z.string(), chars: z.number() })).optional(),
      unmasked: z.string().optional(),
      images: z.array(imageSchema).max(MAX_SHOWN_IMAGES).optional(),
    }),
    z.object({
      type: z.literal('usage'),
      runId,
      usage: usageSchema,
      costUsd: z.number().optional(),
      session: usageTotalsSchema.optional(),
    }),
    z.object({
      type: z.literal('context-compacted'),
      runId,
      by: z.enum(['auto', 'person']),
      summary: z.string(),
      keptFrom: z.number().int().nonnegative(),
      keptFromDigest: z.string(),
      replacedMessages: z.number(),
      tokensBefore: z.number(),
      tokensAfter: z.number(),
      usage: usageSchema.optional(),
      session: usageTotalsSchema.optional(),
      at: z.number(),
    }),
    z.object({
      type: z.literal('context-use'),
      runId,
      tokens: z.number(),
      windowTokens: z.number(),
      answerTokens: z.number(),
      windowSource: z.enum(['person', 'provider', 'table', 'default']),
      modelWindowTokens: z.number().optional(),
      counter: z.string(),
    }),
    z.object({
      type: z.literal('instructions-loaded'),
      runId,
      file: z.string(),
      chars: z.number(),
      note: z.string().optional(),
    }),
    z.object({
      type: z.literal('run-finished'),
      runId,
      reason: z.enum(['done', 'stopped', 'max-steps', 'error']),
      message: z.string().optional(),
    }),
    z.object({
      type: z.literal('error'),
      runId,
      message: z.string(),
      retrying: z.boolean(),
      fault: z
        .enum([
          'unreachable',
          'unauthorized',
          'not-found',
          'rate-limited',
          'server',
          'incomplete',
          'protocol',
          'internal',
        ])
        .optional(),
    }),
    z.object({
      type: z.literal('files-reverted'),
      runId,
      scope: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('call'), callId }),
        z.object({ kind: z.literal('run') }),
        z.object({ kind: z.literal('files') }),
      ]),
      files: z.array(z.object({ path: z.string(), action: z.enum(['restored', 'deleted']) })),
      at: z.number(),
    }),
  ]);
  return eventSchema;
}

export const runEventSchema: () => z.ZodType<RunEvent> = lazyValue(buildEventSchema);

// zod drops keys a schema does not name, so an event field missing here would vanish on reload
// (a session's taint did once). Every variant must name exactly the keys of its RunEvent type.
type Inferred = z.infer<ReturnType<typeof buildEventSchema>>;
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : false;
type KeysPerType = {
  [T in RunEvent['type']]: SameKeys<Extract<RunEvent, { type: T }>, Extract<Inferred, { type: T }>>;
};
export const EVENT_SCHEMA_KEYS_MATCH: KeysPerType[RunEvent['type']] extends true ? true : never =
  true;
