// The model behind any OpenAI-compatible endpoint, through the `openai` SDK: one streamed turn
// at a time, each chunk checked, tool calls assembled from deltas within bounds, time limits on a
// quiet provider, faults retried where another attempt could help and then reported plainly.
import OpenAI, { APIError, APIUserAbortError } from 'openai';
import type { RunFault } from '../../shared/events';
import type { Usage } from '../../shared/tool-types';
import type { ToolDefinition } from '../tools/registry';
import type { ChatMessage, ChatToolCall } from './chat-message';
import { describeFault, faultOf, ProviderError, sentence } from './provider-faults';
import { listModelEntries, type ModelEntry } from './provider-probe';
import {
  DEFAULT_PROVIDER_TIMEOUTS,
  RequestWatchdog,
  type ProviderTimeouts,
} from './request-watchdog';
import {
  DEFAULT_RETRY,
  retryDecision,
  sleep as realSleep,
  type RetryOptions,
} from './retry-policy';
import { ProtocolFault, readChunk } from './stream-chunk';
import { createProviderFetch } from './provider-fetch';
import { ToolCallAssembler } from './tool-call-assembly';
import { groupDigits } from '../../shared/digit-groups';

export { ProviderError } from './provider-faults';

/** Text and tool-call text of one answer, in characters: past it the answer is a protocol error. */
export const MAX_TURN_CHARS = 16 * 1024 * 1024;

export interface TurnRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly signal: AbortSignal;
  /** The most the answer may take, and the request field that says so. */
  readonly answerLimit?: {
    readonly tokens: number;
    readonly field: 'max_tokens' | 'max_completion_tokens';
  };
  readonly onTextDelta?: (text: string) => void;
  /** Called before each retry with a one-line reason and the wait. */
  readonly onRetry?: (info: {
    attempt: number;
    delayMs: number;
    message: string;
    fault: RunFault;
  }) => void;
}

export interface AssistantTurn {
  readonly text: string;
  readonly toolCalls: ChatToolCall[];
  readonly usage?: Usage;
  readonly finishReason: string;
}

export interface ChatProvider {
  readonly model: string;
  readonly baseUrl: string;
  /** Resolves with the complete turn; rejects with ProviderError (or AbortedError on stop). */
  streamTurn(request: TurnRequest): Promise<AssistantTurn>;
  /** The model's entry in the provider's model list (its window, where listed); may reject. */
  describeModel?(): Promise<ModelEntry | undefined>;
}

/** The model list is a nicety for the window size: it may not hold up a run for long. */
const DESCRIBE_TIMEOUT_MS = 5000;

export class AbortedError extends Error {
  override readonly name = 'AbortedError';
  constructor() {
    super('stopped');
  }
}

export interface OpenAIProviderOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string;
  readonly retry?: Partial<RetryOptions>;
  /** Connect, idle and whole-request limits (defaults: 60 s, 120 s, 20 min). */
  readonly timeouts?: Partial<ProviderTimeouts>;
  /** Waits between attempts; resolves early when the signal aborts (tests record the waits). */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function createOpenAIProvider(options: OpenAIProviderOptions): ChatProvider {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const timeouts: ProviderTimeouts = { ...DEFAULT_PROVIDER_TIMEOUTS, ...options.timeouts };
  const sleep = options.sleep ?? realSleep;
  // Retries are ours, so the person sees each one as an event and Stop cuts a backoff short.
  // Time limits are ours too (the watchdog); the SDK's own only backs up the whole-request one.
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    maxRetries: 0,
    timeout: timeouts.requestMs + 1000,
    // The SDK logs a chunk it cannot parse to the console; the fault is reported as an event.
    logLevel: 'off',
    // Redirects are followed by hand: a hop to another origin carries no provider header.
    fetch: createProviderFetch(),
  });

  async function attempt(
    request: TurnRequest,
    turnKey: string,
    emitted: { text: boolean },
  ): Promise<AssistantTurn> {
    const watchdog = new RequestWatchdog(timeouts, request.signal);
    try {
      return await readTurn(request, turnKey, emitted, watchdog);
    } catch (error) {
      // An abort by the watchdog surfaces as an abort error or a quiet end: name the limit.
      if (watchdog.fired && !request.signal.aborted) throw timeoutError(watchdog);
      throw error;
    } finally {
      watchdog.dispose();
    }
  }

  async function readTurn(
    request: TurnRequest,
    turnKey: string,
    emitted: { text: boolean },
    watchdog: RequestWatchdog,
  ): Promise<AssistantTurn> {
    const stream = await client.chat.completions.create(
      {
        model: options.model,
        messages: request.messages as ChatMessage[],
        ...(request.tools.length ? { tools: request.tools as ToolDefinition[] } : {}),
        ...(request.answerLimit ? { [request.answerLimit.field]: request.answerLimit.tokens } : {}),
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: watchdog.signal },
    );
    watchdog.responded();
    let text = '';
    let received = 0;
    let finishReason: string | undefined;
    let usage: Usage | undefined;
    const calls = new ToolCallAssembler();
    for await (const raw of stream as AsyncIterable<unknown>) {
      const chunk = readChunk(raw);
      if (chunk.useful) watchdog.progressed();
      if (chunk.usage) usage = chunk.usage;
      for (const call of chunk.toolCalls) {
        received += (call.function?.name?.length ?? 0) + (call.function?.arguments?.length ?? 0);
        calls.add(call);
      }
      received += chunk.text.length;
      if (received > MAX_TURN_CHARS) {
        throw new ProtocolFault(
          `the model's answer passed ${groupDigits(MAX_TURN_CHARS)} characters of text and tool calls, more than one answer may hold`,
        );
      }
      if (chunk.text) {
        text += chunk.text;
        emitted.text = true;
        request.onTextDelta?.(chunk.text);
      }
      if (chunk.finishReason) finishReason = chunk.finishReason;
    }
    // The SDK ends iteration quietly when aborted; a stream without a finish reason was cut.
    if (watchdog.fired) throw timeoutError(watchdog);
    if (request.signal.aborted) throw new AbortedError();
    if (!finishReason) {
      throw new ProviderError(
        `The model's answer stopped half-way (the stream ended without a finish reason after ${text.length} characters${calls.size ? ` and ${calls.size} partial tool call(s)` : ''})`,
        'incomplete',
      );
    }
    return { text, toolCalls: calls.finish(turnKey), finishReason, ...(usage ? { usage } : {}) };
  }

  return {
    model: options.model,
    baseUrl: options.baseUrl,
    async describeModel() {
      const entries = await listModelEntries(options.baseUrl, options.apiKey, {
        timeoutMs: DESCRIBE_TIMEOUT_MS,
      });
      return entries.find((entry) => entry.id === options.model);
    },
    async streamTurn(request) {
      const turnKey = Math.random().toString(36).slice(2, 10);
      for (let n = 1; ; n++) {
        const emitted = { text: false };
        try {
          // Each attempt gets its own child signal (the watchdog's): the SDK never removes the
          // listener it adds, so the run's signal does not collect one per step.
          return await attempt(request, turnKey, emitted);
        } catch (error) {
          if (request.signal.aborted || error instanceof APIUserAbortError)
            throw new AbortedError();
          const fault = describeFault(error, options);
          // Text already shown cannot be taken back, so a stream cut after text is not retried.
          const retryable = fault.retryable && !emitted.text && n < retry.maxAttempts;
          if (!retryable) {
            const tries = n > 1 ? ` (after ${n} attempts)` : '';
            throw new ProviderError(
              sentence(`${fault.message}${tries}`),
              fault.kind,
              fault.status,
              false,
            );
          }
          const decision = retryDecision(
            n,
            retry,
            error instanceof APIError ? error.headers : null,
          );
          if (decision.kind === 'give-up') {
            const seconds = Math.ceil(decision.askedMs / 1000);
            throw new ProviderError(
              sentence(
                `${fault.message}; the provider asked to wait ${seconds} s before retrying, longer than Tandem waits (${Math.round(retry.maxRetryAfterMs / 1000)} s): try again later`,
              ),
              fault.kind,
              fault.status,
              false,
            );
          }
          const { delayMs } = decision;
          request.onRetry?.({
            attempt: n,
            delayMs,
            message: sentence(fault.message).replace(/\.$/, ''),
            fault: faultOf(fault.kind, fault.status),
          });
          await sleep(delayMs, request.signal);
          if (request.signal.aborted) throw new AbortedError();
        }
      }
    },
  };
}

/** Connect and idle limits may pass on another attempt; the whole-request limit is spent. */
function timeoutError(watchdog: RequestWatchdog): ProviderError {
  const kind = watchdog.fired ?? 'request';
  return new ProviderError(watchdog.describe(kind), 'timeout', undefined, kind !== 'request');
}
