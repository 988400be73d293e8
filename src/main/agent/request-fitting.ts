// Builds each model request within the window: the system prompt and the tool list (the same
// bytes every time), then the conversation as ConversationContext fits it, compacting when asked;
// and learns from the usage the provider reports (calibration, the session's totals).
import type { RunEvent } from '../../shared/events';
import type { Usage } from '../../shared/tool-types';
import type { ToolDefinition } from '../tools/registry';
import type { ChatMessage } from './chat-message';
import { marginOf, requestSummary } from './compaction';
import { messageDigest, type ConversationContext, type FitLimits, type FitResult } from './context';
import type { ModelWindow } from './model-window';
import { AbortedError, type ChatProvider, type TurnRequest } from './provider';
import type { MessageCounter } from './token-counter';
import type { CountingHandover } from './tokenizer-handover';
import type { UsageMeter } from './usage-meter';
import { groupDigits } from '../../shared/digit-groups';

/** A session's context: its window, its counter, its fitted conversation and its usage. */
export interface SessionContext {
  /** Narrowed when the provider refuses a request and states a smaller window. */
  window: ModelWindow;
  readonly counter: MessageCounter;
  /** Switches the counter from the upper bound to the tokenizer once it has loaded. */
  readonly counting: CountingHandover;
  readonly conversation: ConversationContext;
  readonly meter: UsageMeter;
}

export interface FittingDeps {
  readonly provider: ChatProvider;
  readonly systemPrompt: string;
  readonly tools: readonly ToolDefinition[];
  readonly context: SessionContext;
  readonly history: () => readonly ChatMessage[];
  readonly emit: (event: RunEvent) => void;
}

export type FittedRequest =
  | {
      readonly kind: 'ok';
      readonly request: Pick<TurnRequest, 'messages' | 'tools' | 'answerLimit'>;
      /** The prompt as counted (raw) and as the provider is expected to count it. */
      readonly raw: number;
      readonly tokens: number;
    }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'failed'; readonly message: string };

/** Whether this run may still ask for a compaction (not after one failed). */
export interface CompactionSwitch {
  enabled: boolean;
}

export function limitsFor(deps: Omit<FittingDeps, 'provider' | 'history' | 'emit'>): FitLimits {
  const { window, counter } = deps.context;
  return {
    promptTokens: window.contextTokens - window.answerTokens - marginOf(window),
    fixedRaw: counter.fixedMessage(deps.systemPrompt) + counter.tools(JSON.stringify(deps.tools)),
  };
}

export async function fitRequest(
  deps: FittingDeps,
  runId: string,
  signal: AbortSignal,
  compaction: CompactionSwitch,
): Promise<FittedRequest> {
  const { conversation, window } = deps.context;
  await deps.context.counting.beforeFit(() =>
    conversation.fitsWhole(deps.history(), limitsFor(deps)),
  );
  const limits = limitsFor(deps);
  let fit = conversation.fit(deps.history(), limits, { compact: compaction.enabled });
  if (fit.kind === 'compact') {
    const outcome = await compact(deps, runId, 'auto', signal, fit, limits);
    if (outcome.kind === 'stopped') return outcome;
    if (outcome.kind === 'failed') compaction.enabled = false;
    fit = conversation.fit(deps.history(), limits, { compact: false });
  }
  if (fit.kind !== 'fits') {
    const tokens = fit.kind === 'too-big' ? fit.tokens : 0;
    return {
      kind: 'failed',
      message:
        `The conversation does not fit the model's context window even shortened: about ` +
        `${groupDigits(tokens)} tokens where ${groupDigits(limits.promptTokens)} ` +
        "fit. The latest message, or the model's latest turn with its results, is too long for this " +
        'model: send a shorter message or choose a model with a larger window.',
    };
  }
  return {
    kind: 'ok',
    request: {
      messages: [{ role: 'system', content: deps.systemPrompt }, ...fit.messages],
      tools: deps.tools,
      answerLimit: { tokens: window.answerTokens, field: window.limitField },
    },
    raw: fit.raw,
    tokens: fit.tokens,
  };
}

export type CompactOutcome =
  | { readonly kind: 'done'; readonly replacedMessages: number }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * One summary request for the older part; on success the summary stands in for it from now on
 * and a `context-compacted` event records it (in the trace and the transcript).
 */
export async function compact(
  deps: FittingDeps,
  runId: string,
  by: 'auto' | 'person',
  signal: AbortSignal,
  plan: Extract<FitResult, { kind: 'compact' }>,
  limits: FitLimits,
): Promise<CompactOutcome> {
  const { conversation, counter, window, meter } = deps.context;
  let outcome;
  try {
    outcome = await requestSummary({
      provider: deps.provider,
      counter,
      window,
      material: plan.material,
      signal,
      onRetry: ({ attempt, delayMs, message }) =>
        deps.emit({
          type: 'error',
          runId,
          message: `${message} (while summarising the older part of the session); retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt + 1})`,
          retrying: true,
        }),
    });
  } catch (error) {
    if (signal.aborted || error instanceof AbortedError) return { kind: 'stopped' };
    outcome = {
      ok: false as const,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  const metered = outcome.usage ? meter.add(outcome.usage) : undefined;
  if (!outcome.ok) {
    const message =
      `Could not summarise the older part of the session (${outcome.message})` +
      (by === 'auto' ? '; older turns are left out of the requests instead.' : '.');
    deps.emit({ type: 'error', runId, message, retrying: false });
    return { kind: 'failed', message };
  }
  const history = deps.history();
  conversation.compacted({ summary: outcome.summary, keptFrom: plan.keptFrom });
  const after = conversation.fit(history, limits, { compact: false });
  deps.emit({
    type: 'context-compacted',
    runId,
    by,
    summary: outcome.summary,
    keptFrom: plan.keptFrom,
    keptFromDigest: messageDigest(history[plan.keptFrom] as ChatMessage),
    replacedMessages: plan.keptFrom,
    tokensBefore: plan.tokens,
    tokensAfter: after.tokens,
    ...usageFields(outcome.usage, metered?.session),
    at: Date.now(),
  });
  return { kind: 'done', replacedMessages: plan.keptFrom };
}

function usageFields(
  usage: Usage | undefined,
  session: ReturnType<UsageMeter['session']> | undefined,
) {
  return { ...(usage ? { usage } : {}), ...(session ? { session } : {}) };
}

/**
 * After a turn: the reported prompt tokens calibrate the counter, and the usage event carries the
 * request's cost and the session's totals.
 */
export function recordUsage(
  context: SessionContext,
  runId: string,
  sentRaw: number,
  usage: Usage,
): RunEvent {
  context.counter.calibrate(sentRaw, usage.promptTokens);
  const metered = context.meter.add(usage);
  return { type: 'usage', runId, usage, ...metered };
}

/** What the request about to be sent takes of the window, for the status bar and the CLI. */
export function contextUse(context: SessionContext, runId: string, tokens: number): RunEvent {
  const { window, counter } = context;
  const factor = counter.factor;
  return {
    type: 'context-use',
    runId,
    tokens,
    windowTokens: window.contextTokens,
    answerTokens: window.answerTokens,
    windowSource: window.source,
    ...(window.modelContextTokens !== undefined
      ? { modelWindowTokens: window.modelContextTokens }
      : {}),
    counter:
      factor === 1
        ? counter.text.name
        : `${counter.text.name}, ×${factor.toFixed(2)} from the provider's reports`,
  };
}

/** Tools by name: the list is part of the start of every request, which providers cache. */
export function toolsInFixedOrder(tools: ToolDefinition[]): ToolDefinition[] {
  return tools.sort((a, b) => (a.function.name < b.function.name ? -1 : 1));
}
