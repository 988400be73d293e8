// Asks an OpenAI-compatible endpoint which models it serves (GET /models through the `openai`
// SDK), for the Settings view's model list and connection test. Every failure becomes a message
// a person can act on: unreachable, bad key, not an OpenAI-compatible endpoint, timeout.
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
} from 'openai';
import { createProviderFetch } from './provider-fetch';

const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

/** Sent where no key is stored: local servers ignore it, and the SDK insists on some key. */
const NO_KEY_PLACEHOLDER = 'no-key';

export type ProbeFailureKind =
  'unreachable' | 'timeout' | 'unauthorized' | 'forbidden' | 'not-found' | 'http' | 'not-openai';

export class ProbeError extends Error {
  override readonly name = 'ProbeError';
  constructor(
    message: string,
    readonly kind: ProbeFailureKind,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ProbeOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** Model ids the endpoint lists, sorted; throws ProbeError with a person-readable message. */
export async function listModels(
  baseUrl: string,
  apiKey: string | undefined,
  options: ProbeOptions = {},
): Promise<string[]> {
  const entries = await listModelEntries(baseUrl, apiKey, options);
  return [...new Set(entries.map((entry) => entry.id))].sort((a, b) => a.localeCompare(b));
}

/** One model of the list, with its limits where the provider says them. */
export interface ModelEntry {
  readonly id: string;
  readonly contextTokens?: number;
  readonly maxOutputTokens?: number;
}

/** The models the endpoint lists, in its order; throws ProbeError like listModels. */
export async function listModelEntries(
  baseUrl: string,
  apiKey: string | undefined,
  options: ProbeOptions = {},
): Promise<ModelEntry[]> {
  // Everything explicit, so nothing leaks in from OPENAI_* variables of the environment.
  const client = new OpenAI({
    baseURL: baseUrl,
    apiKey: apiKey ?? NO_KEY_PLACEHOLDER,
    adminAPIKey: null,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    fetch: createProviderFetch(),
  });
  const where = describeEndpoint(baseUrl);
  let data: unknown;
  try {
    const page = await client.models.list(options.signal ? { signal: options.signal } : {});
    // The SDK turns a missing `data` into []; the raw body tells an empty list from a non-API answer.
    const body: unknown = (page as unknown as { body?: unknown }).body;
    data =
      typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  } catch (error) {
    throw toProbeError(error, where, apiKey !== undefined);
  }
  if (!Array.isArray(data)) {
    throw new ProbeError(
      `${where} answered, but not like an OpenAI-compatible API (no model list at /models). ` +
        'Check the base URL: it usually ends in /v1.',
      'not-openai',
    );
  }
  return data.flatMap((raw: unknown) => {
    const entry = readModelEntry(raw);
    return entry ? [entry] : [];
  });
}

/** A count of tokens a provider could mean: a whole number from 256 to 100 million. */
function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 256 && value <= 1e8
    ? value
    : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The limits providers put in their model lists, each under its own name: OpenRouter, Together
 * and Fireworks `context_length` (OpenRouter also `top_provider`), Groq `context_window`,
 * Mistral and LM Studio `max_context_length`, vLLM `max_model_len`.
 */
function readModelEntry(raw: unknown): ModelEntry | undefined {
  const id = field(raw, 'id');
  if (typeof id !== 'string' || id === '') return undefined;
  const top = field(raw, 'top_provider');
  const contextTokens =
    tokenCount(field(top, 'context_length')) ??
    tokenCount(field(raw, 'context_length')) ??
    tokenCount(field(raw, 'context_window')) ??
    tokenCount(field(raw, 'max_context_length')) ??
    tokenCount(field(raw, 'max_model_len'));
  const maxOutputTokens =
    tokenCount(field(top, 'max_completion_tokens')) ??
    tokenCount(field(raw, 'max_completion_tokens')) ??
    tokenCount(field(raw, 'max_output_tokens'));
  return {
    id,
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}

export interface ConnectionCheck {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  /** The provider refuses requests without a key (hosted services). */
  readonly needsApiKey: boolean;
  /** For the message: "OpenAI", "Ollama", … */
  readonly providerLabel: string;
}

export interface ConnectionResult {
  readonly ok: boolean;
  /** The server answered but does not list the chosen model. */
  readonly modelMissing?: boolean;
  readonly message: string;
  readonly models?: readonly string[];
}

export async function testConnection(
  check: ConnectionCheck,
  options: ProbeOptions = {},
): Promise<ConnectionResult> {
  if (check.needsApiKey && check.apiKey === undefined) {
    return {
      ok: false,
      message: `${check.providerLabel} needs an API key: add one under API key, then test again.`,
    };
  }
  let models: string[];
  try {
    models = await listModels(check.baseUrl, check.apiKey, options);
  } catch (error) {
    if (error instanceof ProbeError) return { ok: false, message: error.message };
    throw error;
  }
  const where = describeEndpoint(check.baseUrl);
  const count = `${models.length} model${models.length === 1 ? '' : 's'} available`;
  if (check.model === '') {
    return { ok: true, message: `Connected to ${where}: ${count}. Choose a model.`, models };
  }
  if (models.length > 0 && !models.includes(check.model)) {
    // Reachable is not OK: a run with this name would fail on its first request.
    return {
      ok: false,
      modelMissing: true,
      message:
        `${where} answered (${count}), but "${check.model}" is not among them: ` +
        'choose one from the list (runs fail unless this server accepts other names).',
      models,
    };
  }
  return { ok: true, message: `Connected to ${where}: "${check.model}" is available.`, models };
}

function describeEndpoint(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function toProbeError(error: unknown, where: string, sentKey: boolean): ProbeError {
  // Timeout before connection error: the timeout class extends it.
  if (error instanceof APIConnectionTimeoutError) {
    return new ProbeError(`${where} did not answer in time. Is the server running?`, 'timeout');
  }
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: { code?: string; cause?: { code?: string } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    return new ProbeError(
      `Cannot reach ${where}${code ? ` (${code})` : ''}. Check the base URL and that the server is running.`,
      'unreachable',
    );
  }
  if (error instanceof AuthenticationError) {
    return new ProbeError(
      sentKey
        ? `${where} refused the API key (401). Check the key, or replace it.`
        : `${where} needs an API key (401). Add one, then test again.`,
      'unauthorized',
      401,
    );
  }
  if (error instanceof PermissionDeniedError) {
    return new ProbeError(
      `${where} refused access (403): the key may lack permission to list models.`,
      'forbidden',
      403,
    );
  }
  if (error instanceof NotFoundError) {
    return new ProbeError(
      `${where} has no /models here (404): this base URL is not an OpenAI-compatible endpoint. ` +
        'It usually ends in /v1.',
      'not-found',
      404,
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    return new ProbeError(
      `${where} answered with an error (${error.status}): ${firstLine(error.message)}`,
      'http',
      error.status,
    );
  }
  if (error instanceof Error && error.name !== 'AbortError') {
    // A 200 that is not JSON (an HTML page at the wrong URL) surfaces as a parse error.
    return new ProbeError(
      `${where} answered, but not like an OpenAI-compatible API (${firstLine(error.message)}). ` +
        'Check the base URL: it usually ends in /v1.',
      'not-openai',
    );
  }
  throw error;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
