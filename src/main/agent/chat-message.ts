// Chat messages in the OpenAI wire format: what the model sees and what the transcript stores.

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export function isChatMessage(value: unknown): value is ChatMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.role) {
    case 'system':
    case 'user':
      return typeof message.content === 'string';
    case 'assistant':
      return (
        (typeof message.content === 'string' || message.content === null) &&
        (message.tool_calls === undefined || Array.isArray(message.tool_calls))
      );
    case 'tool':
      return typeof message.tool_call_id === 'string' && typeof message.content === 'string';
    default:
      return false;
  }
}
