// A provider that refuses a request as longer than its window says so in words, and most say by
// how much: OpenAI and vLLM ("maximum context length is 32768 tokens … 33000 in the messages"),
// llama.cpp ("request (8000 tokens) exceeds the available context size (4096 tokens)"),
// Anthropic-style ("prompt is too long: 210000 tokens > 200000 maximum"). Tandem learns from it
// once: its count is corrected by the provider's, the window narrowed to what the provider
// states, and the request fitted again. A second refusal in a row is reported as it is.
import { ProviderError } from './provider-faults';
import type { SessionContext } from './request-fitting';

export interface Overflow {
  /** The window the provider states, when it does. */
  readonly limit?: number;
  /** The prompt's tokens as the provider counted them, when it says. */
  readonly promptTokens?: number;
}

const OVERFLOW_WORDS =
  /context[ _-]length|context size|context window|maximum context|prompt is too long|too many tokens|exceeds? the (available )?context/i;

const LIMIT_PATTERNS = [
  /maximum context length is (\d+)/i,
  /context size \((\d+) tokens\)/i,
  /> ?(\d+) maximum/i,
  /context window of (\d+)/i,
];
const PROMPT_PATTERNS = [
  /\((\d+) in the messages/i,
  /messages resulted in (\d+) tokens/i,
  /request \((\d+) tokens\)/i,
  /prompt is too long: (\d+) tokens/i,
];

/** The refusal, when the error is a provider's "too long for the window". */
export function readOverflow(error: unknown): Overflow | undefined {
  if (!(error instanceof ProviderError) || (error.status !== 400 && error.status !== 413)) {
    return undefined;
  }
  if (!OVERFLOW_WORDS.test(error.message)) return undefined;
  const limit = firstNumber(error.message, LIMIT_PATTERNS);
  const promptTokens = firstNumber(error.message, PROMPT_PATTERNS);
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(promptTokens !== undefined ? { promptTokens } : {}),
  };
}

/**
 * Corrects the session's count and window from a refusal of a request that was counted `raw`;
 * returns the sentence for the trace.
 */
export function learnFromOverflow(
  context: SessionContext,
  raw: number,
  overflow: Overflow,
): string {
  context.counter.overflowed(raw, overflow.promptTokens);
  const { window } = context;
  const limit = overflow.limit;
  const narrowed = limit !== undefined && limit >= 1024 && limit < window.contextTokens;
  if (narrowed) {
    context.window = {
      ...window,
      contextTokens: limit,
      answerTokens: Math.min(window.answerTokens, Math.max(256, Math.floor(limit / 4))),
      source: 'provider',
    };
  }
  const n = (value: number): string => value.toLocaleString('en-US');
  return (
    'The provider refused the request as too long for the model' +
    (limit !== undefined ? ` (its window: ${n(limit)} tokens)` : '') +
    (narrowed
      ? `; Tandem now fits requests to that window instead of ${n(window.contextTokens)}`
      : '') +
    '; sending it again, shorter'
  );
}

function firstNumber(text: string, patterns: readonly RegExp[]): number | undefined {
  for (const pattern of patterns) {
    const value = Number(pattern.exec(text)?.[1]);
    if (Number.isSafeInteger(value) && value > 0) return value;
  }
  return undefined;
}
