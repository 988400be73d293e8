// How many tokens a model's context holds, for the models whose figure their maker publishes;
// null for any other name (the status bar then shows the count alone, never a guess).

const CONTEXT_WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^gpt-4\.1(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/, 1_047_576],
  [/^gpt-4o(-mini)?(-\d{4}-\d{2}-\d{2})?$/, 128_000],
  [/^o3(-mini)?(-\d{4}-\d{2}-\d{2})?$/, 200_000],
  [/^o4-mini(-\d{4}-\d{2}-\d{2})?$/, 200_000],
];

export function contextWindowOf(model: string): number | null {
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^openai\//, '');
  for (const [pattern, tokens] of CONTEXT_WINDOWS) if (pattern.test(name)) return tokens;
  return null;
}
