// Streaming tool calls arrive in pieces: the id, the name and the argument text can each be split
// across chunks, and providers differ (some repeat the full name, some omit `index`). Everything
// here comes from the provider, so nothing is sized by it: calls are numbered 0, 1, 2, … with
// no gaps, at most MAX_TOOL_CALLS_PER_TURN of them, and anything else is a protocol error.
import type { ChatToolCall } from './chat-message';
import { ProtocolFault } from './stream-chunk';

export const MAX_TOOL_CALLS_PER_TURN = 128;

/** What a provider may send for one call; every field is unchecked input. */
export interface ToolCallDelta {
  readonly index?: unknown;
  readonly id?: unknown;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

interface Slot {
  id: string;
  name: string;
  arguments: string;
}

/** Ids are keys of the journal, the cards and the transcript: plain, printable and short. */
const USABLE_ID = /^[\x21-\x7e]{1,256}$/;

export class ToolCallAssembler {
  private readonly calls: Slot[] = [];

  /** Adds one delta; throws ProtocolFault for an index that is not the next or an earlier call. */
  add(delta: ToolCallDelta): void {
    const slot = this.slotFor(delta);
    const id = usableId(delta.id);
    if (id && !slot.id) slot.id = id;
    const name = delta.function?.name;
    // A provider that repeats the whole name in every chunk must not double it.
    if (name && name !== slot.name) slot.name += name;
    const args = delta.function?.arguments;
    if (args) slot.arguments += args;
  }

  get size(): number {
    return this.calls.length;
  }

  /** Complete calls in order; a call the provider sent without a usable id gets one. */
  finish(turnKey: string): ChatToolCall[] {
    return this.calls.map((call, index) => ({
      id: call.id || `call_${turnKey}_${index}`,
      type: 'function',
      function: { name: boundedName(call.name), arguments: call.arguments },
    }));
  }

  private slotFor(delta: ToolCallDelta): Slot {
    const index = delta.index ?? this.guessIndex(delta);
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      throw new ProtocolFault(
        `the provider sent a tool call with index ${describe(index)}; an index must be a whole number from 0`,
      );
    }
    if (index >= MAX_TOOL_CALLS_PER_TURN) {
      throw new ProtocolFault(
        `the provider sent more than ${MAX_TOOL_CALLS_PER_TURN} tool calls in one answer (index ${index}); Tandem takes at most ${MAX_TOOL_CALLS_PER_TURN}`,
      );
    }
    if (index > this.calls.length) {
      throw new ProtocolFault(
        `the provider sent tool call index ${index} when the next call is ${this.calls.length}; indexes must count 0, 1, 2, … without gaps`,
      );
    }
    if (index === this.calls.length) this.calls.push({ id: '', name: '', arguments: '' });
    return this.calls[index] as Slot;
  }

  /** Without an index: the call with this id, a new call for a new id, else the latest call. */
  private guessIndex(delta: ToolCallDelta): number {
    const id = usableId(delta.id);
    const byId = id ? this.calls.findIndex((call) => call.id === id) : -1;
    if (byId >= 0) return byId;
    return id || this.calls.length === 0 ? this.calls.length : this.calls.length - 1;
  }
}

/** No tool has a longer name; a longer one is cut so it does not ride along in every request. */
export const MAX_TOOL_NAME_CHARS = 256;

function boundedName(name: string): string {
  return name.length > MAX_TOOL_NAME_CHARS ? `${name.slice(0, MAX_TOOL_NAME_CHARS)}…` : name;
}

function usableId(id: unknown): string | undefined {
  return typeof id === 'string' && USABLE_ID.test(id) ? id : undefined;
}

/** A short, safe description of any value (it may be huge or nested thousands deep). */
function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value.slice(0, 40)}${value.length > 40 ? '…' : ''}"`;
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value).slice(0, 40);
}
