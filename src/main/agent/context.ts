// What of the conversation is sent, within the model's window. Answered calls with huge arguments
// (a whole file written) are shortened as soon as they are older than the latest turns. Then, in
// order, as far as the window needs: (1) older tool outputs and older calls' long arguments
// shrink, oldest first, and stay shrunk (so the start of the request stays the same from one
// request to the next, for the provider's cache); (2) if that is not enough, the older part is
// summarised by the model (compaction, done by the caller) and the summary stands in for it;
// (3) as last resorts, recent outputs shrink, old exchanges are left out, and the model's own
// long texts shrink. The person's latest task, the latest turns and every call's one answer
// always go; the stored history is never changed.
import { createHash } from 'node:crypto';
import type { RunEvent } from '../../shared/events';
import type { ChatMessage } from './chat-message';
import {
  shrinkAssistant,
  shrinkCalls,
  shrinkOldOutput,
  shrinkRecentOutput,
} from './history-shrink';
import type { MessageCounter } from './token-counter';

/** The older part of a session, summarised; what follows `keptFrom` is sent as it is. */
export interface Compaction {
  readonly summary: string;
  /** Index in the session's history of the first message sent after the summary. */
  readonly keptFrom: number;
}

export interface FitLimits {
  /** Tokens the whole prompt may take as the provider counts them (the answer's share is out). */
  readonly promptTokens: number;
  /** Raw tokens of what is sent whole every time: the system prompt and the tool list. */
  readonly fixedRaw: number;
}

export type FitResult =
  | {
      readonly kind: 'fits';
      readonly messages: ChatMessage[];
      /** The whole prompt, raw (as counted) and corrected (as the provider is expected to count). */
      readonly raw: number;
      readonly tokens: number;
    }
  | {
      readonly kind: 'compact';
      /** History index the kept part would start at. */
      readonly keptFrom: number;
      /** What the summary replaces, as it would be sent now (an earlier summary first). */
      readonly material: readonly ChatMessage[];
      readonly tokens: number;
    }
  | { readonly kind: 'too-big'; readonly tokens: number; readonly limit: number };

/** Answered arguments past this many characters are shortened whether or not the budget asks. */
export const HUGE_ARGUMENT_CHARS = 32_768;

/** The latest turns (a call and its answers each) are never shrunk while older ones can be. */
const KEEP_TURNS = 2;
/** Shrinking goes this far below the limit, so the next requests append without shrinking. */
const LOW_WATER = 0.8;
/** After compaction, the part kept whole takes at most this share of the limit. */
const KEEP_SHARE = 0.4;

export const SUMMARY_HEADER =
  '[Summary of the earlier part of this session, written to save context; the person still has the full transcript]';

interface View {
  readonly messages: ChatMessage[];
  /** The stored message behind each sent one; undefined for the summary. */
  readonly originals: (ChatMessage | undefined)[];
  /** History index of the first stored message in the view. */
  readonly start: number;
  /** 1 when the view begins with the summary, else 0. */
  readonly prefix: number;
}

export class ConversationContext {
  private compaction: Compaction | undefined;
  /** Older messages once shrunk stay shrunk: same object, same bytes, every later request. */
  private readonly sticky = new WeakMap<ChatMessage, ChatMessage>();
  /** Last-resort forms, decided per request but made once (so each is counted once). */
  private readonly recent = new WeakMap<ChatMessage, ChatMessage>();
  private readonly shortened = new WeakMap<ChatMessage, ChatMessage>();
  private summaryMessage: { readonly key: string; readonly message: ChatMessage } | undefined;

  constructor(private readonly counter: MessageCounter) {}

  get current(): Compaction | undefined {
    return this.compaction;
  }

  compacted(compaction: Compaction): void {
    this.compaction = compaction;
  }

  /** What to send now; `compact: false` when compaction is not to be asked for (again). */
  fit(
    history: readonly ChatMessage[],
    limits: FitLimits,
    options: { compact: boolean },
  ): FitResult {
    const budget = this.counter.rawWithin(limits.promptTokens) - limits.fixedRaw;
    const view = this.view(history);
    const { messages } = view;
    const tail = turnsStart(messages, view.prefix, KEEP_TURNS);
    this.shrinkHugeArguments(view, tail);
    let raw = this.counter.messages(messages);
    const result = (): FitResult => {
      const whole = raw + limits.fixedRaw;
      return raw <= budget
        ? { kind: 'fits', messages, raw: whole, tokens: this.counter.corrected(whole) }
        : {
            kind: 'too-big',
            tokens: this.counter.corrected(whole),
            limit: limits.promptTokens,
          };
    };
    if (raw <= budget) return result();
    const replace = (i: number, next: ChatMessage): void => {
      raw += this.counter.message(next) - this.counter.message(messages[i] as ChatMessage);
      messages[i] = next;
    };

    // (1) Older outputs and arguments, oldest first, to below the low-water mark; kept so.
    for (let i = view.prefix; i < tail && raw > budget * LOW_WATER; i++) {
      const message = messages[i] as ChatMessage;
      const shrunk =
        message.role === 'tool'
          ? shrinkOldOutput(message)
          : message.role === 'assistant'
            ? shrinkCalls(message)
            : message;
      if (shrunk === message) continue;
      this.sticky.set(view.originals[i] as ChatMessage, shrunk);
      replace(i, shrunk);
    }
    if (raw <= budget) return result();

    // (1b) A huge write among the latest turns (answered: its content is in the folder) is what a
    // summary of the older part could not make fit; it is shortened before asking for one.
    for (let i = tail; i < messages.length && raw > budget; i++) {
      const message = messages[i] as ChatMessage;
      if (message.role !== 'assistant' || !hasHugeArguments(message)) continue;
      const shrunk = shrinkCalls(message);
      this.sticky.set(view.originals[i] as ChatMessage, shrunk);
      replace(i, shrunk);
    }
    if (raw <= budget) return result();

    // (2) The older part is summarised, when there is an older part.
    if (options.compact) {
      const cut = this.compactionCut(view, budget);
      if (cut !== undefined) {
        return {
          kind: 'compact',
          keptFrom: view.start + cut - view.prefix,
          material: messages.slice(0, cut),
          tokens: this.counter.corrected(raw + limits.fixedRaw),
        };
      }
    }

    // (3) Last resorts, in the order that loses least.
    const last = turnsStart(messages, view.prefix, 1);
    const shrinkEach = (from: number, to: number, form: (m: ChatMessage) => ChatMessage): void => {
      for (let i = from; i < to && raw > budget; i++) {
        const next = form(messages[i] as ChatMessage);
        if (next !== messages[i]) replace(i, next);
      }
    };
    shrinkEach(view.prefix, last, (m) => this.recentForm(m));
    shrinkEach(view.prefix, messages.length, (m) => this.shortenedForm(m));
    // A latest turn that crowds out everything else is shrunk before old turns are left out.
    const latestRaw = this.counter.messages(messages.slice(last));
    if (latestRaw > budget / 2) shrinkEach(last, messages.length, (m) => this.recentForm(m));
    if (raw > budget) raw = this.leaveOutOldTurns(messages, view.prefix, tail, raw, budget);
    shrinkEach(turnsStart(messages, view.prefix, 1), messages.length, (m) => this.recentForm(m));
    return result();
  }

  /**
   * Whether the whole conversation goes as it is, nothing cut for the budget (answered huge
   * arguments shrink whatever the budget, which only makes it smaller). Counting with an upper
   * bound, a yes holds for the true count too.
   */
  fitsWhole(history: readonly ChatMessage[], limits: FitLimits): boolean {
    const budget = this.counter.rawWithin(limits.promptTokens) - limits.fixedRaw;
    return this.counter.messages(this.view(history).messages) <= budget;
  }

  /**
   * An answered call with huge arguments (a whole file written) is shortened once it is out of
   * the latest turns, even while everything fits: the content is on disk, and sending it again
   * with every request costs its size each time. Once shortened it stays so (same bytes after).
   */
  private shrinkHugeArguments(view: View, tail: number): void {
    const { messages } = view;
    for (let i = view.prefix; i < tail; i++) {
      const message = messages[i] as ChatMessage;
      if (message.role !== 'assistant' || !hasHugeArguments(message)) continue;
      const shrunk = shrinkCalls(message);
      this.sticky.set(view.originals[i] as ChatMessage, shrunk);
      messages[i] = shrunk;
    }
  }

  /** Where an asked-for compaction would cut now; undefined when there is nothing older. */
  cutNow(history: readonly ChatMessage[], limits: FitLimits): FitResult | undefined {
    const budget = this.counter.rawWithin(limits.promptTokens) - limits.fixedRaw;
    const view = this.view(history);
    // Asked for, it keeps no more than the latest turns even when more would fit.
    const cut = this.compactionCut(
      view,
      budget,
      turnsStart(view.messages, view.prefix, KEEP_TURNS),
    );
    if (cut === undefined) return undefined;
    return {
      kind: 'compact',
      keptFrom: view.start + cut - view.prefix,
      material: view.messages.slice(0, cut),
      tokens: this.counter.corrected(this.counter.messages(view.messages) + limits.fixedRaw),
    };
  }

  private view(history: readonly ChatMessage[]): View {
    const start = this.compaction?.keptFrom ?? 0;
    const kept = history.slice(start);
    const originals: (ChatMessage | undefined)[] = [...kept];
    const messages = kept.map((m) => this.sticky.get(m) ?? m);
    if (!this.compaction) return { messages, originals, start, prefix: 0 };
    messages.unshift(this.summaryFor(history, this.compaction));
    originals.unshift(undefined);
    return { messages, originals, start, prefix: 1 };
  }

  /**
   * The summary as a user message; when the person's latest task lies in the summarised part it
   * follows in their own words, so it is in every request whatever was summarised.
   */
  private summaryFor(history: readonly ChatMessage[], compaction: Compaction): ChatMessage {
    const latest = latestUserIndex(history);
    const task = latest >= 0 && latest < compaction.keptFrom ? history[latest]?.content : undefined;
    const key = `${compaction.keptFrom}\n${compaction.summary}\n${task ?? ''}`;
    if (this.summaryMessage?.key !== key) {
      const content = task
        ? `${SUMMARY_HEADER}\n\n${compaction.summary}\n\nThe person's current task, in their words:\n\n${task}`
        : `${SUMMARY_HEADER}\n\n${compaction.summary}`;
      this.summaryMessage = { key, message: { role: 'user', content } };
    }
    return this.summaryMessage.message;
  }

  /**
   * The kept part starts at a call of the model (so it follows the summary as an answer follows
   * a question, and no answer is parted from its call) and holds the latest turns within a share
   * of the limit; always at least the latest turn. Undefined when no older turn is left.
   */
  private compactionCut(view: View, budget: number, earliest = 0): number | undefined {
    const keep = budget * KEEP_SHARE;
    let kept = 0;
    // A history that ends with the person's message may be summarised whole: the message then
    // follows the summary in their own words.
    let cut: number | undefined =
      view.messages.at(-1)?.role === 'user' ? view.messages.length : undefined;
    for (let j = view.messages.length - 1; j > Math.max(view.prefix, earliest - 1); j--) {
      const message = view.messages[j] as ChatMessage;
      kept += this.counter.message(message);
      if (message.role !== 'assistant') continue;
      if (cut !== undefined && kept > keep) break;
      cut = j;
    }
    // Worth a summary only when a turn of the model's lies before the cut (tasks alone are not).
    const older = view.messages.slice(view.prefix, cut);
    return older.some((m) => m.role === 'assistant') ? cut : undefined;
  }

  /** Whole old turns left out, oldest first, never the person's latest task. */
  private leaveOutOldTurns(
    messages: ChatMessage[],
    from: number,
    to: number,
    raw: number,
    budget: number,
  ): number {
    const task = latestUserIndex(messages);
    const out = new Set<number>();
    for (let i = from; i < to && raw > budget;) {
      let end = i + 1;
      while (end < to && messages[end]?.role === 'tool') end++;
      if (i !== task) {
        for (let k = i; k < end; k++) {
          out.add(k);
          raw -= this.counter.message(messages[k] as ChatMessage);
        }
      }
      i = end;
    }
    if (out.size === 0) return raw;
    const kept = messages.filter((_, i) => !out.has(i));
    messages.splice(0, messages.length, ...kept);
    return raw;
  }

  private recentForm(message: ChatMessage): ChatMessage {
    if (message.role !== 'tool') return message;
    let form = this.recent.get(message);
    if (!form) this.recent.set(message, (form = shrinkRecentOutput(message)));
    return form;
  }

  private shortenedForm(message: ChatMessage): ChatMessage {
    if (message.role !== 'assistant') return message;
    let form = this.shortened.get(message);
    if (!form) this.shortened.set(message, (form = shrinkAssistant(message)));
    return form;
  }
}

/**
 * Index of the first of the latest `turns` turns of the model (at or after `from`). Only turns
 * since the person's latest message count: a new task makes every earlier turn an older one
 * (else one huge turn could stay "latest" for ever).
 */
function turnsStart(messages: readonly ChatMessage[], from: number, turns: number): number {
  let seen = 0;
  for (let i = messages.length - 1; i >= from; i--) {
    const role = messages[i]?.role;
    if (role === 'user' || (role === 'assistant' && ++seen === turns)) return i;
  }
  return from;
}

function hasHugeArguments(message: Extract<ChatMessage, { role: 'assistant' }>): boolean {
  return (message.tool_calls ?? []).some(
    (call) => call.function.arguments.length > HUGE_ARGUMENT_CHARS,
  );
}

function latestUserIndex(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

/** Names a stored message in a compaction record, so a reopened session can find it again. */
export function messageDigest(message: ChatMessage): string {
  return createHash('sha256').update(JSON.stringify(message)).digest('hex').slice(0, 16);
}

function sameDigest(message: ChatMessage | undefined, digest: string): boolean {
  return message !== undefined && messageDigest(message) === digest;
}

/**
 * The latest compaction of a reopened session. Its record names the first kept message by index
 * and digest; if a repaired history moved it, it is looked for by digest. When it cannot be
 * placed, the history is fitted afresh and `problem` says so.
 */
export function restoredCompaction(
  history: readonly ChatMessage[],
  events: readonly RunEvent[],
): { readonly compaction?: Compaction; readonly problem?: string } {
  const last = events.findLast((event) => event.type === 'context-compacted');
  if (last?.type !== 'context-compacted') return {};
  let keptFrom = last.keptFrom;
  if (!sameDigest(history[keptFrom], last.keptFromDigest)) {
    keptFrom = history.findIndex((m) => sameDigest(m, last.keptFromDigest));
  }
  if (keptFrom < 1 || history[keptFrom]?.role !== 'assistant') {
    return {
      problem:
        'the summary of an earlier compaction no longer matches the history; the history is fitted afresh',
    };
  }
  return { compaction: { summary: last.summary, keptFrom } };
}
