// Streaming tool calls arrive in pieces: the id, the name and the argument text can each be split
// across chunks, and providers differ (some repeat the full name, some omit `index`).
import type { ChatToolCall } from './chat-message';

export interface ToolCallDelta {
  readonly index?: number;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

export class ToolCallAssembler {
  private readonly calls: { id: string; name: string; arguments: string }[] = [];

  add(delta: ToolCallDelta): void {
    const slot = this.slotFor(delta);
    if (delta.id && !slot.id) slot.id = delta.id;
    const name = delta.function?.name;
    // A provider that repeats the whole name in every chunk must not double it.
    if (name && name !== slot.name) slot.name += name;
    const args = delta.function?.arguments;
    if (args) slot.arguments += args;
  }

  get size(): number {
    return this.calls.length;
  }

  /** Complete calls in order; a call the provider sent without an id gets a stable one. */
  finish(turnKey: string): ChatToolCall[] {
    return this.calls.map((call, index) => ({
      id: call.id || `call_${turnKey}_${index}`,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }

  private slotFor(delta: ToolCallDelta): { id: string; name: string; arguments: string } {
    let index = delta.index;
    if (index === undefined) {
      const byId = delta.id ? this.calls.findIndex((call) => call.id === delta.id) : -1;
      if (byId >= 0) index = byId;
      else index = delta.id || this.calls.length === 0 ? this.calls.length : this.calls.length - 1;
    }
    while (this.calls.length <= index) this.calls.push({ id: '', name: '', arguments: '' });
    return this.calls[index] as { id: string; name: string; arguments: string };
  }
}
