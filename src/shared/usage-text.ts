// The session's usage in one line, the same in the CLI and the window.
import type { UsageTotals } from './tool-types';

/** "3 requests: 12,345 prompt tokens (8,000 cached), 567 completion, $0.0123" */
export function describeTotals(totals: UsageTotals): string {
  const n = (value: number): string => value.toLocaleString('en-US');
  const cached = totals.cachedTokens > 0 ? ` (${n(totals.cachedTokens)} cached)` : '';
  const cost = totals.costUsd !== undefined ? `, $${totals.costUsd.toFixed(4)}` : '';
  return `${n(totals.requests)} requests: ${n(totals.promptTokens)} prompt tokens${cached}, ${n(totals.completionTokens)} completion${cost}`;
}
