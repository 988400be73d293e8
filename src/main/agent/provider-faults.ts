// What went wrong with a model request, in words a person can act on, and whether asking again
// could help: network faults and a cut or quiet stream may pass; a protocol error will not.
import { APIConnectionError, APIError } from 'openai';
import { isRetryableStatus } from './retry-policy';
import { ProtocolFault } from './stream-chunk';

export type ProviderFaultKind = 'http' | 'network' | 'incomplete' | 'protocol' | 'timeout';

/** A provider fault after retries, with a message for the person. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly kind: ProviderFaultKind,
    readonly status?: number,
    /** Whether another attempt could succeed (a cut stream, a quiet connection). */
    readonly retryable: boolean = kind === 'network' || kind === 'incomplete',
  ) {
    super(message);
  }
}

export interface Fault {
  readonly message: string;
  readonly kind: ProviderFaultKind;
  readonly retryable: boolean;
  readonly status?: number;
}

export interface FaultContext {
  readonly baseUrl: string;
  readonly model: string;
}

export function describeFault(error: unknown, context: FaultContext): Fault {
  if (error instanceof ProviderError) {
    return {
      message: error.message,
      kind: error.kind,
      retryable: error.retryable,
      ...(error.status !== undefined ? { status: error.status } : {}),
    };
  }
  if (error instanceof ProtocolFault) {
    return {
      message: `${error.message} (a protocol error; not retried)`,
      kind: 'protocol',
      retryable: false,
    };
  }
  if (error instanceof APIConnectionError) {
    return {
      message: `cannot reach the provider at ${context.baseUrl}: ${rootCause(error)}`,
      kind: 'network',
      retryable: true,
    };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const detail = errorDetail(error);
    const hint =
      error.status === 401 || error.status === 403
        ? ' (check the API key)'
        : error.status === 404
          ? ` (check the base URL and the model name "${context.model}")`
          : '';
    return {
      message: `the provider answered HTTP ${error.status}${detail ? `: ${detail}` : ''}${hint}`,
      kind: 'http',
      retryable: isRetryableStatus(error.status),
      status: error.status,
    };
  }
  if (error instanceof APIError) {
    return {
      message: `the provider sent an error in the stream: ${bounded(error.message)} (a protocol error; not retried)`,
      kind: 'protocol',
      retryable: false,
    };
  }
  if (error instanceof SyntaxError) {
    return {
      message: `the provider sent a stream chunk that is not JSON: ${bounded(error.message)} (a protocol error; not retried)`,
      kind: 'protocol',
      retryable: false,
    };
  }
  // undici reports a socket closed mid-body as TypeError("terminated").
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `the connection to the provider broke mid-answer: ${rootCause(error) || message}`,
    kind: 'network',
    retryable: true,
  };
}

function errorDetail(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return bounded(body.message);
  return '';
}

/** Provider-sent text in an error message stays one readable line. */
function bounded(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function rootCause(error: unknown): string {
  let current: unknown = error;
  let message = '';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    message = typeof code === 'string' ? `${code} ${current.message}`.trim() : current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}
