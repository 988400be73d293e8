// Token figures in words, the same in the CLI and the window.
import type { RunEvent, WindowSource } from './events';
import type { Usage, UsageTotals } from './tool-types';

const n = (value: number): string => value.toLocaleString('en-US');

/** "3 requests: 12,345 prompt tokens (8,000 cached), 567 completion, $0.0123" */
export function describeTotals(totals: UsageTotals): string {
  const cached = totals.cachedTokens > 0 ? ` (${n(totals.cachedTokens)} cached)` : '';
  const cost = totals.costUsd !== undefined ? `, $${totals.costUsd.toFixed(4)}` : '';
  return `${n(totals.requests)} requests: ${n(totals.promptTokens)} prompt tokens${cached}, ${n(totals.completionTokens)} completion${cost}`;
}

/** One request: "12,345 in (8,000 cached), 234 out, $0.0012". */
export function describeRequest(usage: Usage, costUsd?: number): string {
  const cached = usage.cachedTokens ? ` (${n(usage.cachedTokens)} cached)` : '';
  const cost = costUsd !== undefined ? `, $${costUsd.toFixed(4)}` : '';
  return `${n(usage.promptTokens)} in${cached}, ${n(usage.completionTokens)} out${cost}`;
}

export type ContextUseFigures = Pick<
  Extract<RunEvent, { type: 'context-use' }>,
  'tokens' | 'windowTokens' | 'answerTokens' | 'windowSource' | 'counter' | 'modelWindowTokens'
>;

/** Whole per cent of the window the prompt takes (the answer's share is part of the window). */
export function contextPercent(use: ContextUseFigures): number {
  return Math.round((use.tokens / use.windowTokens) * 100);
}

/** "45,210 of 128,000 tokens (35 %)" */
export function describeContextUse(use: ContextUseFigures): string {
  return `${n(use.tokens)} of ${n(use.windowTokens)} tokens (${contextPercent(use)} %)`;
}

const SOURCES: Record<WindowSource, string> = {
  person: 'your setting',
  provider: "the provider's model list",
  table: "Tandem's table of known models",
  default: 'unknown model: a cautious default',
};

/** Where the figures come from, for a tooltip or a --verbose line. */
export function describeContextSource(use: ContextUseFigures): string {
  const from =
    use.modelWindowTokens !== undefined
      ? `Tandem's working limit; the model takes ${n(use.modelWindowTokens)} according to ${SOURCES[use.windowSource]}; set a larger figure in Settings to use more`
      : SOURCES[use.windowSource];
  return (
    `Window ${n(use.windowTokens)} tokens (${from}), ` +
    `${n(use.answerTokens)} of them kept for the answer; counted with ${use.counter}`
  );
}
