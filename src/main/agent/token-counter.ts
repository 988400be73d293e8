// How many tokens a request takes: a real tokenizer (gpt-tokenizer) for models whose encoding is
// known, else an estimate from UTF-8 bytes; both corrected by what the provider reports. While the
// tokenizer loads, the UTF-8 byte count stands in as an upper bound (tokenizer-handover.ts). Every
// message is counted once (cached by object), so a long history costs a sum per request.
import type { ChatMessage } from './chat-message';

export type TokenEncoding = 'o200k_base' | 'cl100k_base';

/** Counts the tokens of one text. */
export interface TextCounter {
  readonly kind: 'tokenizer' | 'estimate' | 'bound';
  /** "o200k_base", or "bytes / 2.5". */
  readonly name: string;
  count(text: string): number;
}

/**
 * Before any usage report: 2.5 bytes a token is more tokens than cl100k gives JSON, Japanese or
 * Korean, and far more than it gives code and prose (3.9 bytes a token); calibration then closes
 * the gap (token-counter.test.ts prints the errors).
 */
export const ESTIMATE_BYTES_PER_TOKEN = 2.5;

/** Template tokens around every message and every call (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
const CALL_OVERHEAD = 8;
/** The tool list is sent as JSON; providers render it in their own form around it. */
const TOOLS_OVERHEAD = 16;

export function byteEstimate(bytesPerToken = ESTIMATE_BYTES_PER_TOKEN): TextCounter {
  return {
    kind: 'estimate',
    name: `bytes / ${bytesPerToken}`,
    count: (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / bytesPerToken),
  };
}

/**
 * No more tokens than the text has UTF-8 bytes: o200k and cl100k are byte-level BPE, every token
 * stands for at least one byte (and text that spells a special token is counted as plain text).
 * Used only to decide that a request fits whole, where more than the true count is safe.
 */
export function utf8Bound(): TextCounter {
  return {
    kind: 'bound',
    name: 'UTF-8 bytes, an upper bound while the tokenizer loads',
    count: (text) => Buffer.byteLength(text, 'utf8'),
  };
}

const loaded = new Map<TokenEncoding, Promise<TextCounter>>();
const ready = new Map<TokenEncoding, TextCounter>();

/** The encoding's tokenizer if it has already loaded in this process. */
export function loadedTokenizer(encoding: TokenEncoding): TextCounter | undefined {
  return ready.get(encoding);
}

/**
 * The encoding's tokenizer, loaded on first use (0.3-0.6 s and 23-47 MB; see BENCHMARKS.md).
 * Text that spells a special token (`<|endoftext|>`) is counted as the plain text it is.
 */
export function loadTokenizer(encoding: TokenEncoding): Promise<TextCounter> {
  let tokenizer = loaded.get(encoding);
  if (!tokenizer) {
    tokenizer = importEncoding(encoding).then(({ countTokens }) => {
      const plain = { disallowedSpecial: new Set<string>() };
      const counter: TextCounter = {
        kind: 'tokenizer',
        name: encoding,
        count: (text) => countTokens(text, plain),
      };
      ready.set(encoding, counter);
      return counter;
    });
    loaded.set(encoding, tokenizer);
    // A load that failed may be tried again.
    tokenizer.catch(() => loaded.delete(encoding));
  }
  return tokenizer;
}

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

async function importEncoding(encoding: TokenEncoding): Promise<{ countTokens: CountTokens }> {
  switch (encoding) {
    case 'o200k_base':
      return import('gpt-tokenizer/encoding/o200k_base');
    case 'cl100k_base':
      return import('gpt-tokenizer/encoding/cl100k_base');
  }
}

/**
 * Calibration bounds: a real tokenizer is never trusted below its own count. The upper bound is
 * never calibrated (its counts say nothing of the tokenizer's), only raised by a refusal.
 */
const BOUNDS = {
  tokenizer: { plausible: [0.5, 1.6], factor: [1, 1.5], margin: 1.02 },
  estimate: { plausible: [0.3, 2.5], factor: [0.5, 2.5], margin: 1.05 },
  bound: { plausible: [0, 0], factor: [1, 1.5], margin: 1.02 },
} as const;
/** Below this many tokens the template's own tokens swamp the ratio. */
const MIN_CALIBRATION_TOKENS = 256;

export type Calibration =
  | { readonly kind: 'applied'; readonly ratio: number; readonly factor: number }
  | { readonly kind: 'ignored'; readonly reason: string };

/**
 * Counts messages with a TextCounter, each message once, and corrects the sums by the ratio of
 * reported to counted prompt tokens. Raw counts are cached; the factor applies to sums only.
 */
export class MessageCounter {
  private perMessage = new WeakMap<ChatMessage, number>();
  private readonly perText = new Map<string, number>();
  private smoothed: number | undefined;
  private currentFactor = 1;

  constructor(private counting: TextCounter) {}

  get text(): TextCounter {
    return this.counting;
  }

  /**
   * Counts with `next` from now on (the tokenizer, once loaded, in place of the upper bound):
   * every cached count goes, and so does what calibration learnt of the old counter's ratios. A
   * factor raised by a refusal is kept (within the new counter's bounds).
   */
  countWith(next: TextCounter): void {
    this.counting = next;
    this.perMessage = new WeakMap();
    this.perText.clear();
    this.smoothed = undefined;
    const [low, high] = BOUNDS[next.kind].factor;
    this.currentFactor = Math.min(high, Math.max(low, this.currentFactor));
  }

  /** The correction applied to raw sums (1 until the provider has reported usage). */
  get factor(): number {
    return this.currentFactor;
  }

  /** Raw tokens of one message, content and calls together. */
  message(message: ChatMessage): number {
    let tokens = this.perMessage.get(message);
    if (tokens === undefined) {
      tokens = MESSAGE_OVERHEAD + this.text.count(message.content ?? '');
      if (message.role === 'assistant') {
        for (const call of message.tool_calls ?? []) {
          tokens += CALL_OVERHEAD + this.text.count(call.id) + this.text.count(call.function.name);
          tokens += this.text.count(call.function.arguments);
        }
      } else if (message.role === 'tool') {
        tokens += this.text.count(message.tool_call_id);
      }
      this.perMessage.set(message, tokens);
    }
    return tokens;
  }

  messages(messages: readonly ChatMessage[]): number {
    let tokens = 0;
    for (const message of messages) tokens += this.message(message);
    return tokens;
  }

  /** Raw tokens of a text sent whole every time (the system prompt, the tool list's JSON). */
  fixedText(text: string): number {
    let tokens = this.perText.get(text);
    if (tokens === undefined) {
      // A handful of distinct texts live per session; a bound keeps a changing one from piling up.
      if (this.perText.size >= 16) this.perText.clear();
      tokens = this.text.count(text);
      this.perText.set(text, tokens);
    }
    return tokens;
  }

  /** Raw tokens of a message sent whole every time (the system prompt). */
  fixedMessage(content: string): number {
    return MESSAGE_OVERHEAD + this.fixedText(content);
  }

  /** Raw tokens of the tool definitions as sent. */
  tools(toolsJson: string): number {
    return toolsJson === '[]' ? 0 : TOOLS_OVERHEAD + this.fixedText(toolsJson);
  }

  /** A raw count corrected by calibration: what the provider is expected to report. */
  corrected(raw: number): number {
    return Math.ceil(raw * this.currentFactor);
  }

  /** Raw tokens that fit in `tokens` as the provider counts them. */
  rawWithin(tokens: number): number {
    return Math.floor(tokens / this.currentFactor);
  }

  /**
   * The provider refused a request counted `raw` as too long: its own count when it gave one,
   * else a step up, raises the correction (the bounds hold; a refusal is never ignored).
   */
  overflowed(raw: number, reported?: number): void {
    const bounds = BOUNDS[this.text.kind];
    const ratio = reported !== undefined && raw > 0 ? reported / raw : this.currentFactor * 1.15;
    this.smoothed = Math.max(this.smoothed ?? 0, ratio);
    const wanted = Math.max(this.currentFactor * 1.05, ratio * bounds.margin);
    this.currentFactor = Math.min(bounds.factor[1], wanted);
  }

  /**
   * Learns from one request: `raw` is what this counter counted for it, `reported` the prompt
   * tokens the provider said it took. A figure far off any real tokenizer is ignored (some
   * servers report placeholders).
   */
  calibrate(raw: number, reported: number): Calibration {
    if (this.text.kind === 'bound') {
      return { kind: 'ignored', reason: 'counted by the upper bound while the tokenizer loaded' };
    }
    if (raw < MIN_CALIBRATION_TOKENS) return { kind: 'ignored', reason: 'too small a request' };
    const bounds = BOUNDS[this.text.kind];
    const ratio = reported / raw;
    if (!(ratio >= bounds.plausible[0] && ratio <= bounds.plausible[1])) {
      return { kind: 'ignored', reason: `implausible report (${reported} for ${raw})` };
    }
    this.smoothed = this.smoothed === undefined ? ratio : (this.smoothed + ratio) / 2;
    // The larger of the latest and the running ratio: the window must not overflow next time.
    const wanted = Math.max(ratio, this.smoothed) * bounds.margin;
    this.currentFactor = Math.min(bounds.factor[1], Math.max(bounds.factor[0], wanted));
    return { kind: 'applied', ratio, factor: this.currentFactor };
  }
}
