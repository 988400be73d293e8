// The ReAct loop of one run: ask the model (streaming) → answer its tool calls → ask again, until
// it answers without tools, the step limit is reached, the person stops it, or the provider fails.
import type { RunEvent, RunFinishReason } from '../../shared/events';
import type { PermissionGate } from '../permissions/gate';
import { argumentsForHistory } from '../tools/argument-bounds';
import type { ToolRegistry } from '../tools/registry';
import type { ToolServices } from '../tools/tool';
import type { CallStops } from './call-stops';
import type { ChatMessage, ChatToolCall } from './chat-message';
import { learnFromOverflow, readOverflow } from './context-overflow';
import { AbortedError, ProviderError, type AssistantTurn, type ChatProvider } from './provider';
import {
  contextUse,
  fitRequest,
  recordUsage,
  toolsInFixedOrder,
  type CompactionSwitch,
  type SessionContext,
} from './request-fitting';
import { answerToolCalls, type RunTaint } from './tool-calls';
import { uniqueCallIds } from './unique-call-ids';

export const DEFAULT_MAX_STEPS = 50;

export interface RunLoopDeps {
  readonly provider: ChatProvider;
  readonly registry: ToolRegistry;
  readonly gate: PermissionGate;
  readonly folder: string;
  readonly sessionId: string;
  readonly services: ToolServices;
  readonly systemPrompt: string;
  readonly maxSteps: number;
  /** The window, the counter, the fitted conversation and the usage of the session. */
  readonly context: SessionContext;
  /** The conversation so far; the loop appends through `append`. */
  readonly history: () => readonly ChatMessage[];
  readonly append: (message: ChatMessage) => void;
  readonly emit: (event: RunEvent) => void;
  /**
   * Whether the conversation has taken in network or MCP content. It belongs to the session, not
   * the run: the content stays in the history the model reads in later runs.
   */
  readonly taint: RunTaint;
  /** Running calls the person may stop one by one. */
  readonly callStops?: CallStops;
  /** Notes for the model that came in during the run (a revert); added before each request. */
  readonly takeNotes?: () => readonly string[];
}

export interface RunOutcome {
  readonly reason: RunFinishReason;
  readonly message?: string;
}

export async function runLoop(
  deps: RunLoopDeps,
  runId: string,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const { taint } = deps;
  const toolDeps = { ...deps, runId };
  const compaction: CompactionSwitch = { enabled: true };
  for (let step = 1; step <= deps.maxSteps; step++) {
    // Every tool call of the last turn is answered here, so a user message may follow.
    for (const note of deps.takeNotes?.() ?? []) deps.append({ role: 'user', content: note });
    const turn = await askModel(deps, runId, signal, compaction);
    if (turn.kind === 'stopped') return stopped(deps, turn.partialText);
    if (turn.kind === 'failed') {
      // The person saw this text; the model should see it too when the conversation goes on.
      if (turn.partialText) deps.append({ role: 'assistant', content: turn.partialText });
      return { reason: 'error', message: turn.message };
    }

    const { text, usage } = turn.turn;
    const toolCalls = uniqueCallIds(turn.turn.toolCalls, deps.history());
    if (usage) deps.emit(recordUsage(deps.context, runId, turn.raw, usage));
    deps.append({
      role: 'assistant',
      content: text || null,
      ...(toolCalls.length ? { tool_calls: toolCalls.map(keptForHistory) } : {}),
    });
    if (text) deps.emit({ type: 'assistant-message', runId, text });
    if (toolCalls.length === 0) return { reason: 'done' };

    await answerToolCalls(toolCalls, toolDeps, taint, signal, (answers) =>
      answers.forEach(deps.append),
    );
    if (signal.aborted) return { reason: 'stopped', message: 'Stopped by the person.' };
  }
  return {
    reason: 'max-steps',
    message:
      `Stopped after ${deps.maxSteps} steps (the step limit) before the model finished. ` +
      'Send a follow-up to let it continue, or raise the limit.',
  };
}

type TurnResult =
  | { readonly kind: 'ok'; readonly turn: AssistantTurn; readonly raw: number }
  | { readonly kind: 'stopped'; readonly partialText: string }
  | { readonly kind: 'failed'; readonly message: string; readonly partialText: string };

async function askModel(
  deps: RunLoopDeps,
  runId: string,
  signal: AbortSignal,
  compaction: CompactionSwitch,
): Promise<TurnResult> {
  let refused = false;
  for (;;) {
    const outcome = await askOnce(deps, runId, signal, compaction, refused);
    if (outcome.kind !== 'overflow') return outcome;
    // The provider said the request was too long: learned once, fitted again, asked again.
    refused = true;
  }
}

async function askOnce(
  deps: RunLoopDeps,
  runId: string,
  signal: AbortSignal,
  compaction: CompactionSwitch,
  refusedBefore: boolean,
): Promise<TurnResult | { readonly kind: 'overflow' }> {
  let partialText = '';
  let sentRaw: number | undefined;
  try {
    const fitted = await fitRequest(
      { ...deps, tools: toolsInFixedOrder(deps.registry.definitions()) },
      runId,
      signal,
      compaction,
    );
    if (fitted.kind === 'stopped') return { kind: 'stopped', partialText };
    if (fitted.kind === 'failed') {
      deps.emit({ type: 'error', runId, message: fitted.message, retrying: false });
      return { kind: 'failed', message: fitted.message, partialText };
    }
    deps.emit(contextUse(deps.context, runId, fitted.tokens));
    sentRaw = fitted.raw;
    const turn = await deps.provider.streamTurn({
      ...fitted.request,
      signal,
      onTextDelta: (text) => {
        partialText += text;
        deps.emit({ type: 'assistant-delta', runId, text });
      },
      onRetry: ({ attempt, delayMs, message, fault }) =>
        deps.emit({
          type: 'error',
          runId,
          message: `${message}. Retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt + 1}).`,
          retrying: true,
          fault,
        }),
    });
    return { kind: 'ok', turn, raw: fitted.raw };
  } catch (error) {
    if (signal.aborted || error instanceof AbortedError) return { kind: 'stopped', partialText };
    const overflow = refusedBefore || sentRaw === undefined ? undefined : readOverflow(error);
    const message = error instanceof Error ? error.message : String(error);
    const fault = error instanceof ProviderError ? error.fault : 'internal';
    if (overflow && sentRaw !== undefined) {
      const learned = learnFromOverflow(deps.context, sentRaw, overflow);
      deps.emit({
        type: 'error',
        runId,
        message: `${message.endsWith('.') ? message.slice(0, -1) : message}. ${learned}`,
        retrying: true,
        fault,
      });
      return { kind: 'overflow' };
    }
    deps.emit({ type: 'error', runId, message, retrying: false, fault });
    return { kind: 'failed', message, partialText };
  }
}

function stopped(deps: RunLoopDeps, partialText: string): RunOutcome {
  // Keep what the person already saw; half-streamed tool calls are dropped, never half-answered.
  if (partialText) deps.append({ role: 'assistant', content: partialText });
  return { reason: 'stopped', message: 'Stopped by the person.' };
}

function keptForHistory(call: ChatToolCall): ChatToolCall {
  const kept = argumentsForHistory(call.function.arguments);
  return kept === call.function.arguments
    ? call
    : { ...call, function: { ...call.function, arguments: kept } };
}
