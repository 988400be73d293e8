// fetch's Headers without undici. In Node 20 the first touch of the global `Headers` loads all of
// undici (its dispatchers, http2, tls, webidl): 30-45 ms of CPU on the way to the first model
// request, measured (issue 15). The model's requests go over node:http (http-fetch.ts), and the
// openai SDK's bundled code is given this class as its `Headers` (openai-globals.ts). The rules
// are fetch's: names are HTTP tokens compared without case, values lose surrounding whitespace and
// may not hold CR, LF or NUL, repeated names join with ", " (Set-Cookie stays a list), and
// iteration is in name order.

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;

type HeaderPairs = Iterable<readonly [string, string] | readonly string[]>;
type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;
/** fetch's HeadersInit (any Headers, pairs, a record), or pairs from any iterable. */
export type FetchHeadersInit = NonNullable<RequestInit['headers']> | HeaderPairs | HeaderRecord;

function normalName(name: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`invalid header name: ${JSON.stringify(name)}`);
  return name.toLowerCase();
}

function normalValue(value: string): string {
  const trimmed = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (FORBIDDEN_IN_VALUE.test(trimmed)) throw new TypeError('invalid header value');
  return trimmed;
}

function isPairs(init: FetchHeadersInit): boolean {
  return typeof (init as Partial<HeaderPairs>)[Symbol.iterator] === 'function';
}

export class FetchHeaders implements Headers {
  // Lower-case name → its values in the order they came.
  readonly #values = new Map<string, string[]>();

  constructor(init?: FetchHeadersInit | null) {
    if (init === undefined || init === null) return;
    if (isPairs(init)) {
      for (const pair of init as HeaderPairs) {
        if (pair.length !== 2) throw new TypeError('a header must be a [name, value] pair');
        this.append(String(pair[0]), String(pair[1]));
      }
      return;
    }
    for (const [name, value] of Object.entries(init as HeaderRecord)) {
      if (value === undefined) continue;
      for (const one of typeof value === 'string' ? [value] : value) this.append(name, one);
    }
  }

  append(name: string, value: string): void {
    const key = normalName(name);
    const clean = normalValue(value);
    const list = this.#values.get(key);
    if (list) list.push(clean);
    else this.#values.set(key, [clean]);
  }

  set(name: string, value: string): void {
    this.#values.set(normalName(name), [normalValue(value)]);
  }

  delete(name: string): void {
    this.#values.delete(normalName(name));
  }

  get(name: string): string | null {
    return this.#values.get(normalName(name))?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(normalName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  forEach(
    callback: (value: string, name: string, parent: Headers) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name) ?? [];
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
