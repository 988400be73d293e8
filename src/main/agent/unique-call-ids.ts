// Call ids key the undo journal, the window's cards and the running terminals, so they must be
// unique within a session. Some providers and local servers repeat ids ("call_0" every turn); a
// repeated id is renamed before anything sees it, and the model gets the renamed id back in both
// the assistant message and the tool answer, which keeps the conversation consistent.
import type { ChatMessage, ChatToolCall } from './chat-message';

export function uniqueCallIds(
  calls: readonly ChatToolCall[],
  history: readonly ChatMessage[],
): ChatToolCall[] {
  const used = new Set<string>();
  for (const message of history) {
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) used.add(call.id);
  }
  return calls.map((call) => {
    let id = call.id;
    for (let n = 2; used.has(id); n++) id = `${call.id}~${n}`;
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
