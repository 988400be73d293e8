// The model behind any OpenAI-compatible endpoint, through the `openai` SDK: one streamed turn
// at a time, tool calls assembled from deltas, faults retried and then reported plainly.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { RunFault } from '../../shared/events';
import type { Usage } from '../../shared/tool-types';
import { connectionProblem } from './connection-problem';
import type { ToolDefinition } from '../tools/registry';
import type { ChatMessage, ChatToolCall } from './chat-message';
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  retryDecision,
  sleep as realSleep,
  type RetryOptions,
} from './retry-policy';
import { ToolCallAssembler } from './tool-call-assembly';

export interface TurnRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly signal: AbortSignal;
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
}

/** A provider fault after retries, with a message for the person (one sentence, capitalised). */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly kind: 'http' | 'network' | 'incomplete' | 'protocol',
    readonly status?: number,
    /** What the window offers to fix it (see RunFault). */
    readonly fault: RunFault = faultOf(kind, status),
  ) {
    super(message);
  }
}

function faultOf(kind: ProviderError['kind'], status: number | undefined): RunFault {
  switch (kind) {
    case 'network':
      return 'unreachable';
    case 'incomplete':
      return 'incomplete';
    case 'protocol':
      return 'protocol';
    case 'http':
      if (status === 401 || status === 403) return 'unauthorized';
      if (status === 404) return 'not-found';
      if (status === 429) return 'rate-limited';
      if (status !== undefined && status >= 500) return 'server';
      return 'protocol';
  }
}

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
  /** Per-request time limit for the HTTP request (ms). */
  readonly requestTimeoutMs?: number;
  /** Waits between attempts; resolves early when the signal aborts (tests record the waits). */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function createOpenAIProvider(options: OpenAIProviderOptions): ChatProvider {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? realSleep;
  // Retries are ours, so the person sees each one as an event and Stop cuts a backoff short.
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    maxRetries: 0,
    timeout: options.requestTimeoutMs ?? 600_000,
  });

  async function attempt(
    request: TurnRequest,
    turnKey: string,
    emitted: { text: boolean },
  ): Promise<AssistantTurn> {
    const stream = await client.chat.completions.create(
      {
        model: options.model,
        messages: request.messages as ChatMessage[],
        ...(request.tools.length ? { tools: request.tools as ToolDefinition[] } : {}),
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: request.signal },
    );
    let text = '';
    let finishReason: string | undefined;
    let usage: Usage | undefined;
    const calls = new ToolCallAssembler();
    for await (const chunk of stream) {
      if (chunk.usage) {
        usage = {
          promptTokens: chunk.usage.prompt_tokens,
          completionTokens: chunk.usage.completion_tokens,
          totalTokens: chunk.usage.total_tokens,
        };
      }
      const choice = chunk.choices[0];
      if (!choice) continue;
      const delta = choice.delta;
      if (delta?.content) {
        text += delta.content;
        emitted.text = true;
        request.onTextDelta?.(delta.content);
      }
      for (const call of delta?.tool_calls ?? []) calls.add(call);
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    // The SDK ends iteration quietly when aborted; a stream without a finish reason was cut.
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
    async streamTurn(request) {
      const turnKey = Math.random().toString(36).slice(2, 10);
      for (let n = 1; ; n++) {
        const emitted = { text: false };
        // The SDK never removes the listener it adds to the signal it is given; a child signal
        // per attempt keeps a long run's signal from collecting one listener (and stream) per step.
        const child = new AbortController();
        const forward = (): void => child.abort(request.signal.reason);
        request.signal.addEventListener('abort', forward, { once: true });
        try {
          return await attempt({ ...request, signal: child.signal }, turnKey, emitted);
        } catch (error) {
          if (request.signal.aborted || error instanceof APIUserAbortError)
            throw new AbortedError();
          const fault = describeFault(error, options);
          // Text already shown cannot be taken back, so a stream cut after text is not retried.
          const retryable = fault.retryable && !emitted.text && n < retry.maxAttempts;
          if (!retryable) {
            const tries = n > 1 ? ` (after ${n} attempts)` : '';
            throw new ProviderError(`${fault.message}${tries}.`, fault.kind, fault.status);
          }
          const decision = retryDecision(
            n,
            retry,
            error instanceof APIError ? error.headers : null,
          );
          if (decision.kind === 'give-up') {
            const seconds = Math.ceil(decision.askedMs / 1000);
            throw new ProviderError(
              `${fault.message}; the provider asked to wait ${seconds} s before retrying, longer than Tandem waits (${Math.round(retry.maxRetryAfterMs / 1000)} s): try again later.`,
              fault.kind,
              fault.status,
            );
          }
          const { delayMs } = decision;
          request.onRetry?.({
            attempt: n,
            delayMs,
            message: fault.message,
            fault: faultOf(fault.kind, fault.status),
          });
          await sleep(delayMs, request.signal);
          if (request.signal.aborted) throw new AbortedError();
        } finally {
          request.signal.removeEventListener('abort', forward);
        }
      }
    },
  };
}

interface Fault {
  readonly message: string;
  readonly kind: ProviderError['kind'];
  readonly retryable: boolean;
  readonly status?: number;
}

/** One sentence without its final full stop (a retry or an attempt count may follow). */
function describeFault(error: unknown, options: OpenAIProviderOptions): Fault {
  if (error instanceof ProviderError)
    return {
      message: error.message.replace(/\.$/, ''),
      kind: error.kind,
      retryable: true,
    };
  if (error instanceof APIConnectionError) {
    return {
      message: `Tandem could not reach ${options.baseUrl}: ${connectionProblem(error)}`,
      kind: 'network',
      retryable: true,
    };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const detail = errorDetail(error);
    const said = detail ? `: ${detail.replace(/\.$/, '')}` : '';
    const at = `The provider at ${options.baseUrl}`;
    const status = error.status;
    const message =
      status === 401 || status === 403
        ? `${at} refused the API key (HTTP ${status}${said}); check the key in Settings`
        : status === 404
          ? `${at} answered HTTP 404${said}; check the base URL and the model name "${options.model}" in Settings`
          : status === 429
            ? `${at} is limiting requests (HTTP 429${said})`
            : status >= 500
              ? `${at} had a server error (HTTP ${status}${said})`
              : `${at} refused the request (HTTP ${status}${said})`;
    return { message, kind: 'http', retryable: isRetryableStatus(status), status };
  }
  if (error instanceof APIError) {
    return {
      message: `The provider sent an error in the stream: ${error.message}`,
      kind: 'protocol',
      retryable: false,
    };
  }
  if (error instanceof SyntaxError) {
    return {
      message: `The provider sent something that is not JSON: ${error.message}`,
      kind: 'protocol',
      retryable: false,
    };
  }
  // undici reports a socket closed mid-body as TypeError("terminated").
  return {
    message: `The connection to the provider broke mid-answer: ${connectionProblem(error)}`,
    kind: 'incomplete',
    retryable: true,
  };
}

function errorDetail(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return '';
}
