// One GET with redirects followed by hand, where every hop's address is checked at connect time:
// IP literals before any socket exists, host names inside the `lookup` the socket itself uses, so
// the address that was checked is the address that is connected to (no DNS-rebinding gap).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';

/** Why an address may not be contacted, or undefined when it may. */
export type AddressPolicy = (address: string) => string | undefined;

/** A fetch refused by policy (before or at connect time), with a message for the model. */
export class FetchRefused extends Error {
  override readonly name = 'FetchRefused';
}

export interface GuardedGetOptions {
  readonly policy: AddressPolicy;
  readonly signal: AbortSignal;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly headers?: Record<string, string>;
}

export interface GuardedResponse {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** True when the body was cut at maxBytes. */
  readonly truncated: boolean;
  /** Every URL visited before the final one. */
  readonly redirects: readonly string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function guardedGet(
  start: string,
  options: GuardedGetOptions,
): Promise<GuardedResponse> {
  let url = parseHttpUrl(start);
  const redirects: string[] = [];
  for (;;) {
    const response = await open(url, options);
    const location = response.headers.location;
    if (REDIRECTS.has(response.statusCode ?? 0) && location) {
      response.destroy();
      if (redirects.length >= options.maxRedirects) {
        throw new FetchRefused(
          `Too many redirects (more than ${options.maxRedirects}); last one pointed to ${location}.`,
        );
      }
      redirects.push(url.href);
      url = parseHttpUrl(new URL(location, url).href);
      continue;
    }
    const { body, truncated } = await readBody(response, options.maxBytes);
    return {
      url: url.href,
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? '',
      headers: response.headers,
      body,
      truncated,
      redirects,
    };
  }
}

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchRefused(`${JSON.stringify(text)} is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefused(`Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (url.username || url.password)
    throw new FetchRefused('URLs with a user name or password are refused.');
  return url;
}

function open(url: URL, options: GuardedGetOptions): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const reason = options.policy(host);
    if (reason) return Promise.reject(refusedAddress(host, host, reason));
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(url, {
      method: 'GET',
      headers: options.headers,
      signal: options.signal,
      agent: false, // No pooled sockets: every hop connects (and is checked) afresh.
      lookup: checkedLookup(options.policy),
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { all: true, family: lookupOptions.family ?? 0 }, (error, addresses) => {
      const done = callback as (
        err: Error | null,
        address: string | LookupAddress[],
        family?: number,
      ) => void;
      if (error) return done(error, '');
      const allowed = addresses.filter((entry) => !policy(entry.address));
      const first = allowed[0];
      if (!first) {
        const sample = addresses[0];
        const reason = sample ? (policy(sample.address) ?? 'refused') : 'no address';
        return done(refusedAddress(hostname, sample?.address ?? '?', reason), '');
      }
      if (lookupOptions.all) done(null, allowed);
      else done(null, first.address, first.family);
    });
  };
}

function refusedAddress(host: string, address: string, reason: string): FetchRefused {
  const where = host === address ? address : `${host} (${address})`;
  return new FetchRefused(
    `Refused: ${where} is a ${reason} address. Fetching local or private network addresses is off; ` +
      'the person can allow private network access in the settings.',
  );
}

async function readBody(
  response: IncomingMessage,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(response);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } finally {
    response.destroy();
    if (stream !== response) stream.destroy();
  }
  return { body: Buffer.concat(chunks), truncated };
}

/** Decompresses as it reads, so the size cap applies to what comes out (no zip bombs). */
function decoded(response: IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}
