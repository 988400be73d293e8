// How many tokens one request may hold for this model, and how many of them the answer gets:
// the person's figure (a `tandem run` flag or the model's field in Settings) when there is one,
// else the provider's model list, else the table of well-known models, else a cautious default.
import type { WindowSource } from '../../shared/events';
import { knownModel } from './known-models';
import type { ModelEntry } from './provider-probe';
import type { TokenEncoding } from './token-counter';

/** A window no current chat model is smaller than, for a model nothing is known about. */
export const UNKNOWN_MODEL_CONTEXT_TOKENS = 32_768;
/**
 * Requests stay within this unless the person sets a larger figure: every request costs what it
 * carries (a 1M-token window filled is dollars a step), and models lose track in very long
 * prompts. Compaction keeps the work going within it.
 */
export const WORKING_LIMIT_TOKENS = 200_000;
/** The answer's share when the model's own limit is unknown. */
const DEFAULT_ANSWER_TOKENS = 8192;
const MIN_ANSWER_TOKENS = 256;

export interface ModelWindow {
  /** Prompt and answer together. */
  readonly contextTokens: number;
  /** Kept free for the answer and asked for as the request's token limit. */
  readonly answerTokens: number;
  readonly source: WindowSource;
  /** The model's own window, when Tandem's working limit is smaller. */
  readonly modelContextTokens?: number;
  /** The tokenizer to count with; absent: the calibrated byte estimate. */
  readonly encoding?: TokenEncoding;
  /** The request field that carries the answer limit. */
  readonly limitField: 'max_tokens' | 'max_completion_tokens';
}

export interface WindowInput {
  readonly model: string;
  /** The person's figure: `--context-tokens`, or the model's field in Settings. */
  readonly contextTokens?: number;
  /** What the provider's model list says about this model, if it was asked. */
  readonly describe?: () => Promise<ModelEntry | undefined>;
}

export async function resolveModelWindow(input: WindowInput): Promise<ModelWindow> {
  const known = knownModel(input.model);
  let entry: ModelEntry | undefined;
  // The person's figure decides alone; the model list is asked only when it is needed.
  if (input.contextTokens === undefined && input.describe) {
    try {
      entry = await input.describe();
    } catch {
      // No list (a local server without /models, a timeout): the table and default remain.
    }
  }
  const [modelTokens, source]: [number, WindowSource] =
    input.contextTokens !== undefined
      ? [input.contextTokens, 'person']
      : entry?.contextTokens !== undefined
        ? [entry.contextTokens, 'provider']
        : known
          ? [known.contextTokens, 'table']
          : [UNKNOWN_MODEL_CONTEXT_TOKENS, 'default'];
  const capped = source !== 'person' && modelTokens > WORKING_LIMIT_TOKENS;
  const contextTokens = capped ? WORKING_LIMIT_TOKENS : modelTokens;
  const maxOutput = entry?.maxOutputTokens ?? known?.maxOutputTokens ?? DEFAULT_ANSWER_TOKENS;
  // At most a quarter of the window, so a small window still leaves most of it for the prompt.
  const answerTokens = Math.max(
    MIN_ANSWER_TOKENS,
    Math.min(maxOutput, Math.floor(contextTokens / 4)),
  );
  return {
    contextTokens,
    answerTokens,
    source,
    ...(capped ? { modelContextTokens: modelTokens } : {}),
    ...(known?.encoding ? { encoding: known.encoding } : {}),
    limitField: known?.openai ? 'max_completion_tokens' : 'max_tokens',
  };
}

/** One line for the trace: "16,000 tokens (your setting), 4,000 kept for the answer". */
export function describeWindow(window: ModelWindow): string {
  const from = {
    person: 'your setting',
    provider: "the provider's model list",
    table: 'known for this model',
    default: 'unknown model: a cautious default',
  }[window.source];
  const n = (value: number): string => value.toLocaleString('en-US');
  const capped =
    window.modelContextTokens !== undefined
      ? `Tandem's working limit; the model takes ${n(window.modelContextTokens)}, ${from}`
      : from;
  return `${n(window.contextTokens)} tokens (${capped}), ${n(window.answerTokens)} kept for the answer`;
}
