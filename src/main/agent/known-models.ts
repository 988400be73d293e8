// Context windows of well-known models, for when the provider's model list does not say. First
// match wins, so narrower patterns come first. Figures are the makers' published limits; a server
// may run a model with less (Ollama's num_ctx), which is what the per-model setting is for.
import type { TokenEncoding } from './token-counter';

export interface KnownModel {
  readonly contextTokens: number;
  /** The most the model may answer in one turn, where the maker says. */
  readonly maxOutputTokens?: number;
  /** The tokenizer, where it is one gpt-tokenizer has. */
  readonly encoding?: TokenEncoding;
  /** OpenAI's own API wants `max_completion_tokens`; others read `max_tokens`. */
  readonly openai?: boolean;
}

const K = 1024;

type Row = readonly [RegExp, KnownModel];

/** OpenAI's own models: their tokenizer and the `max_completion_tokens` parameter. */
function openai(encoding: TokenEncoding, rows: readonly Row[]): Row[] {
  return rows.map(([pattern, model]) => [pattern, { ...model, encoding, openai: true }]);
}

const OPENAI: readonly Row[] = openai('o200k_base', [
  [/^gpt-5[\w.-]*-chat/, { contextTokens: 128 * K, maxOutputTokens: 16_384 }],
  [/^gpt-5/, { contextTokens: 400_000, maxOutputTokens: 128_000 }],
  [/^gpt-4\.1/, { contextTokens: 1_047_576, maxOutputTokens: 32_768 }],
  [/^(gpt-4o|chatgpt-4o)/, { contextTokens: 128_000, maxOutputTokens: 16_384 }],
  [/^gpt-4\.5/, { contextTokens: 128_000, maxOutputTokens: 16_384 }],
  [/^o1-mini/, { contextTokens: 128_000, maxOutputTokens: 65_536 }],
  [/^o1-preview/, { contextTokens: 128_000, maxOutputTokens: 32_768 }],
  [/^o[134](-|$)/, { contextTokens: 200_000, maxOutputTokens: 100_000 }],
  [/^codex-mini/, { contextTokens: 200_000, maxOutputTokens: 100_000 }],
]);

const OPENAI_CL100K: readonly Row[] = openai('cl100k_base', [
  [/^gpt-4-turbo|^gpt-4-(1106|0125)/, { contextTokens: 128_000, maxOutputTokens: 4096 }],
  [/^gpt-4-32k/, { contextTokens: 32_768, maxOutputTokens: 4096 }],
  [/^gpt-4(-|$)/, { contextTokens: 8192, maxOutputTokens: 4096 }],
  [/^gpt-3\.5-turbo/, { contextTokens: 16_385, maxOutputTokens: 4096 }],
]);

const OPEN_MODELS: readonly Row[] = [
  // Served by others under the same name: o200k (harmony) tokens, the usual max_tokens.
  [/^gpt-oss/, { contextTokens: 131_072, encoding: 'o200k_base' }],
  [/^deepseek-reasoner/, { contextTokens: 128_000, maxOutputTokens: 65_536 }],
  [/^deepseek-chat/, { contextTokens: 128_000, maxOutputTokens: 8192 }],
  [/deepseek-?r1/, { contextTokens: 128_000, maxOutputTokens: 32_768 }],
  [
    /deepseek-?v3|deepseek-?v2\.5|deepseek-coder-?v2/,
    { contextTokens: 128_000, maxOutputTokens: 8192 },
  ],
  [/deepseek-coder/, { contextTokens: 16_384 }],
  [/qwen-?3-?coder/, { contextTokens: 262_144, maxOutputTokens: 65_536 }],
  [/qwq/, { contextTokens: 131_072, maxOutputTokens: 32_768 }],
  [/qwen-?turbo/, { contextTokens: 1_000_000, maxOutputTokens: 8192 }],
  [/qwen-?plus/, { contextTokens: 131_072, maxOutputTokens: 8192 }],
  [/qwen-?max/, { contextTokens: 32_768, maxOutputTokens: 8192 }],
  [/qwen-?3/, { contextTokens: 32_768 }],
  [/qwen-?2\.5|qwen-?2(\b|-|:|$)/, { contextTokens: 32_768, maxOutputTokens: 8192 }],
  [/llama-?4/, { contextTokens: 131_072 }],
  [/llama-?3\.[123]/, { contextTokens: 131_072 }],
  [/llama-?3/, { contextTokens: 8192 }],
  [/codellama|code-llama/, { contextTokens: 16_384 }],
  [/llama-?2/, { contextTokens: 4096 }],
  [/codestral/, { contextTokens: 262_144 }],
  [/magistral/, { contextTokens: 40_960 }],
  [/mixtral-?8x22b/, { contextTokens: 65_536 }],
  [/mixtral/, { contextTokens: 32_768 }],
  [/mistral-(large|medium)|devstral|ministral|pixtral|mistral-?nemo/, { contextTokens: 131_072 }],
  [/mistral-small/, { contextTokens: 131_072 }],
  [/mistral/, { contextTokens: 32_768 }],
  [/gemma-?3n/, { contextTokens: 32_768 }],
  [/gemma-?3[-:]1b/, { contextTokens: 32_768 }],
  [/gemma-?3/, { contextTokens: 131_072, maxOutputTokens: 8192 }],
  [/gemma/, { contextTokens: 8192 }],
];

const TABLE: readonly Row[] = [...OPENAI, ...OPENAI_CL100K, ...OPEN_MODELS];

/**
 * The model's row, by its id as providers write it: "gpt-4o", "openai/gpt-4o" (OpenRouter),
 * "meta-llama/Llama-3.3-70B-Instruct", "qwen2.5-coder:32b" (Ollama).
 */
export function knownModel(modelId: string): KnownModel | undefined {
  const name = (modelId.toLowerCase().split('/').pop() ?? '').trim();
  return TABLE.find(([pattern]) => pattern.test(name))?.[1];
}
