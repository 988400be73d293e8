// A provider's context limit for the scripted server: it counts each request's prompt its own
// way (o200k tokens of every message's JSON and of the tool list, plus a few per message, as a
// provider's chat template adds), refuses one whose prompt and asked-for answer exceed the limit
// with HTTP 400 as OpenAI does, and reports the count as the request's usage, as providers do.
// The count differs from Tandem's on purpose: Tandem must fit by calibrating, not by agreeing.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export interface ContextLimit {
  readonly tokens: number;
  /** The prompt tokens of a chat request body, as this provider counts them. */
  count(body: unknown): number;
}

export interface LimitRefusal {
  readonly index: number;
  readonly promptTokens: number;
  readonly answerTokens: number;
}

const PER_MESSAGE = 4;
const plain = { disallowedSpecial: new Set<string>() };

export function contextLimit(tokens: number): ContextLimit {
  // Each distinct text is tokenized once: a long session resends the same messages every time.
  const cache = new Map<string, number>();
  const counted = (text: string): number => {
    let n = cache.get(text);
    if (n === undefined) {
      n = countTokens(text, plain);
      cache.set(text, n);
    }
    return n;
  };
  return {
    tokens,
    count(body) {
      const { messages, tools } = body as { messages?: unknown[]; tools?: unknown[] };
      let total = tools?.length ? counted(JSON.stringify(tools)) : 0;
      for (const message of messages ?? []) total += PER_MESSAGE + counted(JSON.stringify(message));
      return total;
    },
  };
}

/** The answer limit a request asked for (either field name), 0 when it asked for none. */
export function answerTokensOf(body: unknown): number {
  const { max_tokens: a, max_completion_tokens: b } = body as Record<string, unknown>;
  const value = typeof b === 'number' ? b : a;
  return typeof value === 'number' ? value : 0;
}

/** OpenAI's words for a request past the window. */
export function limitMessage(limit: number, prompt: number, answer: number): string {
  return (
    `This model's maximum context length is ${limit} tokens. However, you requested ` +
    `${prompt + answer} tokens (${prompt} in the messages, ${answer} in the completion). ` +
    'Please reduce the length of the messages or completion.'
  );
}
