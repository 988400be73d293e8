// Chat messages in the OpenAI wire format: what the model sees and what the transcript stores.
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';

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

/** The shape of a stored message: a line that does not fit is skipped when a session reopens. */
export const chatMessageSchema: () => z.ZodType<ChatMessage> = lazyValue(() => {
  const toolCallSchema = z.object({
    id: z.string().min(1),
    type: z.literal('function'),
    function: z.object({ name: z.string(), arguments: z.string() }),
  });
  return z.discriminatedUnion('role', [
    z.object({ role: z.literal('system'), content: z.string() }),
    z.object({ role: z.literal('user'), content: z.string() }),
    z.object({
      role: z.literal('assistant'),
      content: z.string().nullable(),
      tool_calls: z.array(toolCallSchema).optional(),
    }),
    z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
  ]);
});
