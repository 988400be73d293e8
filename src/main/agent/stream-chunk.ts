// One SSE chunk of a streamed chat completion, checked before anything reads it. Providers add
// fields of their own (kept, ignored) and some send chunks without `choices` (a usage chunk, a
// heartbeat: nothing to read); a value of the wrong type is a protocol error of the turn.
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';
import type { Usage } from '../../shared/tool-types';
import type { ToolCallDelta } from './tool-call-assembly';

/** The provider broke the wire protocol in this turn; retrying the same request will not help. */
export class ProtocolFault extends Error {
  override readonly name = 'ProtocolFault';
}

/** Built on first use (lazy-value.ts): when the first answer streams in, after the request. */
const schemas = lazyValue(() => {
  const toolCallDeltaSchema = z.looseObject({
    // Index and id are judged by the assembler, which says what was wrong with them.
    index: z.unknown().optional(),
    id: z.unknown().optional(),
    function: z
      .looseObject({ name: z.string().nullish(), arguments: z.string().nullish() })
      .nullish(),
  });

  const chunkSchema = z.looseObject({
    choices: z
      .array(
        z.looseObject({
          delta: z
            .looseObject({
              content: z.string().nullish(),
              // DeepSeek and others stream the model's thinking here: progress, though not shown.
              reasoning_content: z.string().nullish(),
              reasoning: z.string().nullish(),
              tool_calls: z.array(toolCallDeltaSchema).nullish(),
            })
            .nullish(),
          finish_reason: z.string().nullish(),
        }),
      )
      .nullish(),
    usage: z.unknown().optional(),
  });

  const count = z.number().int().nonnegative();

  /** Cached prompt tokens: OpenAI's `prompt_tokens_details`, DeepSeek's `prompt_cache_hit_tokens`. */
  const usageSchema = z.looseObject({
    prompt_tokens: count,
    completion_tokens: count,
    total_tokens: count,
    prompt_tokens_details: z.looseObject({ cached_tokens: count.nullish() }).nullish().catch(null),
    prompt_cache_hit_tokens: count.nullish().catch(null),
  });
  return { chunkSchema, usageSchema };
});

export interface ChunkParts {
  readonly text: string;
  readonly toolCalls: readonly ToolCallDelta[];
  readonly finishReason?: string;
  readonly usage?: Usage;
  /** Whether the chunk carried anything (text, thinking, a call piece, a finish, usage). */
  readonly useful: boolean;
}

/** Reads one parsed chunk; throws ProtocolFault when a field has the wrong type. */
export function readChunk(raw: unknown): ChunkParts {
  const parsed = schemas().chunkSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ProtocolFault(
      `the provider sent a malformed stream chunk${where}: ${issue?.message ?? 'not an object'}`,
    );
  }
  const chunk = parsed.data;
  const usageParsed =
    chunk.usage == null ? undefined : schemas().usageSchema.safeParse(chunk.usage);
  const usage = usageParsed?.success ? usageOf(usageParsed.data) : undefined;
  const choice = chunk.choices?.[0];
  const delta = choice?.delta;
  const text = delta?.content ?? '';
  const toolCalls = (delta?.tool_calls ?? []) as ToolCallDelta[];
  const thinking = (delta?.reasoning_content ?? '') + (delta?.reasoning ?? '');
  const finishReason = choice?.finish_reason || undefined;
  return {
    text,
    toolCalls,
    ...(finishReason ? { finishReason } : {}),
    ...(usage ? { usage } : {}),
    useful:
      text !== '' ||
      thinking !== '' ||
      toolCalls.length > 0 ||
      finishReason !== undefined ||
      usage !== undefined,
  };
}

function usageOf(data: z.infer<ReturnType<typeof schemas>['usageSchema']>): Usage {
  const cached = data.prompt_tokens_details?.cached_tokens ?? data.prompt_cache_hit_tokens;
  return {
    promptTokens: data.prompt_tokens,
    completionTokens: data.completion_tokens,
    totalTokens: data.total_tokens,
    ...(typeof cached === 'number' ? { cachedTokens: Math.min(cached, data.prompt_tokens) } : {}),
  };
}
