// The session's token counts as the provider reports them, request by request and summed; with
// a price for the model, a cost too. A reopened session starts from what its transcript recorded.
import type { RunEvent } from '../../shared/events';
import { costOf, type ModelPrices } from '../../shared/model-settings';
import type { Usage, UsageTotals } from '../../shared/tool-types';

export interface MeteredUsage {
  readonly costUsd?: number;
  readonly session: UsageTotals;
}

export class UsageMeter {
  private totals: {
    requests: number;
    promptTokens: number;
    cachedTokens: number;
    completionTokens: number;
  } = { requests: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0 };

  constructor(
    private readonly prices: ModelPrices | undefined,
    past: readonly RunEvent[] = [],
  ) {
    for (const event of past) {
      if (event.type === 'usage' || event.type === 'context-compacted') {
        if (event.usage) this.count(event.usage);
      }
    }
  }

  /** Adds one request; returns its cost and the session's totals with it. */
  add(usage: Usage): MeteredUsage {
    this.count(usage);
    const cost = this.prices ? costOf(this.prices, withCached(usage)) : undefined;
    return { ...(cost !== undefined ? { costUsd: cost } : {}), session: this.session() };
  }

  session(): UsageTotals {
    return {
      ...this.totals,
      ...(this.prices ? { costUsd: costOf(this.prices, this.totals) } : {}),
    };
  }

  private count(usage: Usage): void {
    this.totals.requests += 1;
    this.totals.promptTokens += usage.promptTokens;
    this.totals.cachedTokens += usage.cachedTokens ?? 0;
    this.totals.completionTokens += usage.completionTokens;
  }
}

function withCached(usage: Usage) {
  return { ...usage, cachedTokens: usage.cachedTokens ?? 0 };
}
