// What the person may say about one model in Settings: its context window (when the provider and
// Tandem's table do not know it, or a server runs it with less) and its prices, which turn the
// session's token counts into a cost. Every field is optional.
import { z } from 'zod';
import { lazyValue } from './lazy-value';

export interface ModelPrices {
  /** US dollars per million prompt tokens not served from the provider's cache. */
  readonly inputPerMillion: number;
  /** Per million prompt tokens read from the cache; absent: the input price. */
  readonly cachedInputPerMillion?: number;
  readonly outputPerMillion: number;
}

export interface ModelSettings {
  readonly contextTokens?: number;
  readonly prices?: ModelPrices;
}

export const CONTEXT_TOKENS_MIN = 2048;
export const CONTEXT_TOKENS_MAX = 100_000_000;
/** Dollars per million tokens: no model costs more. */
const PRICE_MAX = 10_000;
/** Models with settings kept at most (the file stays small whatever the window sends). */
export const MODEL_SETTINGS_MAX = 200;

// The schemas are built on first use (lazy-value.ts): a run reads them only from a settings file.

export const contextTokensSchema = lazyValue(() =>
  z.number().int().min(CONTEXT_TOKENS_MIN).max(CONTEXT_TOKENS_MAX),
);

export const modelPricesSchema = lazyValue(() => {
  const price = z.number().finite().min(0).max(PRICE_MAX);
  return z
    .object({
      inputPerMillion: price,
      cachedInputPerMillion: price.optional(),
      outputPerMillion: price,
    })
    .strict();
});

export const modelSettingsSchema = lazyValue(() =>
  z
    .object({
      contextTokens: contextTokensSchema().optional(),
      prices: modelPricesSchema().optional(),
    })
    .strict(),
);

/** A model id as a key: what the provider lists, bounded, no control characters. */
export const modelIdSchema = lazyValue(() =>
  z
    .string()
    .trim()
    .min(1)
    .max(300)
    .refine(
      (s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
      'the model name must not contain control characters',
    ),
);

export const modelSettingsMapSchema = lazyValue(() =>
  z
    .record(modelIdSchema(), modelSettingsSchema())
    .refine((map) => Object.keys(map).length <= MODEL_SETTINGS_MAX, {
      message: `at most ${MODEL_SETTINGS_MAX} models may have settings`,
    }),
);

/**
 * The settings stored for `model`, or none: only an own entry counts (a model named `constructor`
 * must not read Object, which no window can be sent and no run can use).
 */
export function settingsOfModel(
  models: Readonly<Record<string, ModelSettings>> | undefined,
  model: string,
): ModelSettings {
  return models !== undefined && Object.hasOwn(models, model) ? (models[model] ?? {}) : {};
}

/** Cost in US dollars of some tokens at these prices. */
export function costOf(
  prices: ModelPrices,
  tokens: {
    readonly promptTokens: number;
    readonly cachedTokens: number;
    readonly completionTokens: number;
  },
): number {
  const cached = Math.min(tokens.cachedTokens, tokens.promptTokens);
  return (
    ((tokens.promptTokens - cached) * prices.inputPerMillion +
      cached * (prices.cachedInputPerMillion ?? prices.inputPerMillion) +
      tokens.completionTokens * prices.outputPerMillion) /
    1_000_000
  );
}
