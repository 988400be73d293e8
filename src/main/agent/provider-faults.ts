// What went wrong with a model request, in words a person can act on, and whether asking again
// could help: network faults and a cut or quiet stream may pass; a protocol error will not.
import { APIConnectionError, APIError } from 'openai';
import type { RunFault } from '../../shared/events';
import { connectionProblem } from './connection-problem';
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

  /** What the window offers to fix it (see RunFault). */
  get fault(): RunFault {
    return faultOf(this.kind, this.status);
  }
}

export function faultOf(kind: ProviderFaultKind, status: number | undefined): RunFault {
  switch (kind) {
    case 'network':
    case 'timeout':
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

/** A fault's message as the person reads it: one sentence, capitalised, with its full stop. */
export function sentence(message: string): string {
  const text = message.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
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
      // Thrown as a sentence; described again as a clause (a retry or attempt count may follow).
      message: error.message.replace(/\.$/, ''),
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
      message: `Tandem could not reach ${context.baseUrl}: ${connectionProblem(error)}`,
      kind: 'network',
      retryable: true,
    };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const detail = errorDetail(error);
    const said = detail ? `: ${detail.replace(/\.$/, '')}` : '';
    const at = `the provider at ${context.baseUrl}`;
    const status = error.status;
    const message =
      status === 401 || status === 403
        ? `${at} refused the API key (HTTP ${status}${said}); check the key in Settings`
        : status === 404
          ? `${at} answered HTTP 404${said}; check the base URL and the model name "${context.model}" in Settings`
          : status === 429
            ? `${at} is limiting requests (HTTP 429${said})`
            : status >= 500
              ? `${at} had a server error (HTTP ${status}${said})`
              : `${at} refused the request (HTTP ${status}${said})`;
    return { message, kind: 'http', retryable: isRetryableStatus(status), status };
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
  return {
    message: `the connection to the provider broke mid-answer: ${connectionProblem(error)}`,
    kind: 'incomplete',
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
