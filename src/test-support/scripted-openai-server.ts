// An OpenAI-compatible HTTP server that plays a script, so tests drive the real `openai` SDK over
// real HTTP: SSE with tool-call deltas split at awkward places, plain JSON answers, and faults.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  answerTokensOf,
  limitMessage,
  type ContextLimit,
  type LimitRefusal,
} from './scripted-context-limit';
import { playQuiet, sleepUnlessClosed, streamTurn, toolCallsOf, usageOf } from './scripted-stream';

export interface ScriptedToolCall {
  readonly name: string;
  /** An object is sent as JSON; a string is sent verbatim (so it may be invalid JSON). */
  readonly arguments: string | Record<string, unknown>;
  readonly id?: string;
}

export interface ScriptedTurn {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Answer with this HTTP status and an error body instead of a completion. */
  readonly status?: number;
  /** Sent as the Retry-After header (with `status`). */
  readonly retryAfter?: string;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Stream: destroy the socket after this many SSE events (a cut stream). */
  readonly cutAfterEvents?: number;
  /** Stream: end the response cleanly after this many events, without finish_reason or [DONE]. */
  readonly endAfterEvents?: number;
  readonly usage?: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly prompt_tokens_details?: { readonly cached_tokens: number };
  };
  /**
   * Stream these SSE events instead of the ones built from text and toolCalls: an object is sent
   * as `data: <JSON>`, a string goes on the wire verbatim (so it may be garbage, a comment, or
   * `data: [DONE]\n\n`). Nothing is added: no [DONE] unless the list has it.
   */
  readonly sse?: readonly (string | object)[];
  /** A provider that goes quiet: never answer, answer with headers only, or only keep-alives. */
  readonly quiet?: 'silent' | 'headers-only' | 'keep-alive';
  /** Stream: wait this long before each SSE event (a provider that trickles). */
  readonly eventDelayMs?: number;
  /** SSE bytes per socket write for this turn (overrides the server's `chunkBytes`). */
  readonly chunkBytes?: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** Parsed JSON body (undefined for GET). */
  readonly body: unknown;
}

export interface ScriptedServerOptions {
  /** Fixed list played in order, or a function of the request index (for endless scripts). */
  readonly turns:
    readonly ScriptedTurn[] | ((index: number, body: unknown, bodyBytes: number) => ScriptedTurn);
  /** SSE bytes per socket write; small values split lines, JSON and UTF-8 characters. */
  readonly chunkBytes?: number;
  /** Characters per argument/text delta. */
  readonly deltaChars?: number;
  readonly model?: string;
  /** Keep request bodies (default true); a long benchmark turns it off to measure the client. */
  readonly recordRequests?: boolean;
  /** The model list's entries (default: the one model, with no limits given). */
  readonly models?: readonly unknown[];
  /**
   * Refuse (HTTP 400) a chat request whose prompt and answer limit exceed this, and report the
   * counted prompt tokens as its usage unless the turn scripts its own.
   */
  readonly contextLimit?: ContextLimit;
}

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Chat requests refused for exceeding `contextLimit`. */
  readonly refusals: LimitRefusal[];
  /** Prompt tokens of each chat request as `contextLimit` counted them, in order. */
  readonly promptTokens: number[];
  /** Chat completion request bodies only. */
  chatBodies(): ChatRequestBody[];
  close(): Promise<void>;
}

export interface ChatRequestBody {
  readonly model: string;
  readonly stream?: boolean;
  readonly messages: readonly Record<string, unknown>[];
  readonly tools?: readonly Record<string, unknown>[];
}

export async function startScriptedOpenAIServer(
  options: ScriptedServerOptions,
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const refusals: LimitRefusal[] = [];
  const promptTokens: number[] = [];
  let chatIndex = 0;
  const model = options.model ?? 'scripted-model';
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body: unknown = raw ? JSON.parse(raw) : undefined;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (options.recordRequests !== false) {
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    }
    if (req.method === 'GET' && path.endsWith('/models')) {
      sendJson(res, 200, {
        object: 'list',
        data: options.models ?? [{ id: model, object: 'model', owned_by: 'test' }],
      });
      return;
    }
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
      return;
    }
    const index = chatIndex++;
    const limit = options.contextLimit;
    let counted: number | undefined;
    if (limit) {
      counted = limit.count(body);
      promptTokens.push(counted);
      const answer = answerTokensOf(body);
      if (counted + answer > limit.tokens) {
        refusals.push({ index, promptTokens: counted, answerTokens: answer });
        sendJson(res, 400, {
          error: {
            message: limitMessage(limit.tokens, counted, answer),
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        });
        return;
      }
    }
    const scripted =
      typeof options.turns === 'function'
        ? options.turns(index, body, Buffer.byteLength(raw))
        : options.turns[index];
    const turn =
      scripted && counted !== undefined && !scripted.usage
        ? { ...scripted, usage: { prompt_tokens: counted, completion_tokens: 20 } }
        : scripted;
    if (!turn) {
      sendJson(res, 400, {
        error: { message: `scripted server: no turn left for request ${index}` },
      });
      return;
    }
    if (turn.delayMs) await sleepUnlessClosed(turn.delayMs, req);
    if (turn.quiet) {
      await playQuiet(turn.quiet, req, res);
      return;
    }
    if (turn.status) {
      const headers: Record<string, string> = {};
      if (turn.retryAfter !== undefined) headers['retry-after'] = turn.retryAfter;
      sendJson(
        res,
        turn.status,
        { error: { message: `scripted ${turn.status}`, type: 'scripted' } },
        headers,
      );
      return;
    }
    const stream = (body as { stream?: boolean } | undefined)?.stream === true;
    const id = `chatcmpl-${index}`;
    if (!stream) {
      sendJson(res, 200, completion(id, model, turn));
      return;
    }
    const chunkBytes = turn.chunkBytes ?? options.chunkBytes ?? 7;
    await streamTurn(res, id, model, turn, chunkBytes, options.deltaChars ?? 3);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    refusals,
    promptTokens,
    chatBodies: () =>
      requests
        .filter((r) => r.path.endsWith('/chat/completions'))
        .map((r) => r.body as ChatRequestBody),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function completion(id: string, model: string, turn: ScriptedTurn): unknown {
  const calls = toolCallsOf(turn, 0);
  return {
    id,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        finish_reason: calls.length ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          ...(calls.length
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: usageOf(turn),
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
