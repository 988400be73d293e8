// The Response of http-fetch.ts: a node:http answer in the shape of fetch's Response (what the
// openai SDK reads: status, headers, a web ReadableStream body, text() and json()), made without
// touching undici. The body is the server's bytes, decoded from gzip, deflate or brotli as fetch
// decodes them; a connection lost mid-body errors the stream with TypeError("terminated") whose
// cause is the socket's error, as undici does, so the provider reads both alike.
import type { IncomingMessage } from 'node:http';
import { FetchHeaders } from './fetch-headers';

/** Statuses whose answer has no body by definition (and HEAD's answers). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/** Bytes buffered ahead of the reader before the socket is paused. */
const HIGH_WATER_BYTES = 64 * 1024;

export interface ResponseSource {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetchHeaders;
  readonly body: ReadableStream<Uint8Array> | null;
}

export class HttpResponse implements Response {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetchHeaders;
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic' as const;
  #body: ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(source: ResponseSource) {
    this.url = source.url;
    this.status = source.status;
    this.statusText = source.statusText;
    this.headers = source.headers;
    this.ok = source.status >= 200 && source.status <= 299;
    this.#body = source.body;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#body?.locked ?? false);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: it has already been read');
    this.#used = true;
    if (!this.#body) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    for await (const part of this.#body) parts.push(part);
    return new Uint8Array(Buffer.concat(parts));
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get('content-type') ?? '' });
  }

  formData(): Promise<FormData> {
    return Promise.reject(new TypeError('a model response is not read as form data'));
  }

  clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: the body has already been read');
    let twin: ReadableStream<Uint8Array> | null = null;
    if (this.#body) [this.#body, twin] = this.#body.tee();
    return new HttpResponse({ ...this, headers: new FetchHeaders(this.headers), body: twin });
  }
}

/** Whether an answer to `method` with `status` has a body to read. */
export function hasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && !NULL_BODY_STATUSES.has(status);
}

/** A web stream of an answer's bytes, and a way to end it with a given error (an abort). */
export interface WebBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** Errors the stream with `reason` as it is (fetch's abort) and lets go of the socket. */
  fail(reason: unknown): void;
}

/**
 * A web stream of `source`'s bytes (the answer, or its decoder), paused while the reader is
 * behind. `onDone` runs once when the stream ends, errs or is cancelled.
 */
export function webBody(
  source: NodeJS.ReadableStream & { destroy(error?: Error): void },
  response: IncomingMessage,
  onDone: () => void,
): WebBody {
  let finished = false;
  let control: ReadableStreamDefaultController<Uint8Array> | undefined;
  const finish = (): boolean => {
    if (finished) return false;
    finished = true;
    onDone();
    return true;
  };
  const release = (): void => {
    source.destroy();
    response.destroy();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        control = controller;
        source.on('data', (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.on('end', () => {
          if (finish()) controller.close();
        });
        source.on('error', (error: Error) => {
          if (finish()) controller.error(new TypeError('terminated', { cause: error }));
        });
        // A socket that closes before the answer is complete, without an error of its own.
        response.on('close', () => {
          if (response.complete) return;
          const lost = Object.assign(new Error('the connection closed mid-answer'), {
            code: 'ECONNRESET',
          });
          if (finish()) controller.error(new TypeError('terminated', { cause: lost }));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        finish();
        release();
      },
    },
    { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
  return {
    stream,
    fail(reason) {
      if (finish()) control?.error(reason);
      release();
    },
  };
}
