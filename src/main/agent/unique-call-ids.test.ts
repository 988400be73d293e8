import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatToolCall } from './chat-message';
import { uniqueCallIds } from './unique-call-ids';

const call = (id: string): ChatToolCall => ({
  id,
  type: 'function',
  function: { name: 'shell', arguments: '{}' },
});

const earlier: ChatMessage[] = [
  { role: 'user', content: 'x' },
  { role: 'assistant', content: null, tool_calls: [call('call_0'), call('call_0~2')] },
  { role: 'tool', tool_call_id: 'call_0', content: 'ok' },
];

describe('uniqueCallIds', () => {
  it.each<[string, string[], ChatMessage[], string[]]>([
    ['fresh ids stay as they are', ['a', 'b'], earlier, ['a', 'b']],
    ['an id used in an earlier turn is renamed', ['call_0'], earlier, ['call_0~3']],
    ['a repeat within one turn is renamed', ['x', 'x'], [], ['x', 'x~2']],
    ['no history', ['call_0'], [], ['call_0']],
  ])('%s', (_name, ids, history, expected) => {
    expect(uniqueCallIds(ids.map(call), history).map((c) => c.id)).toEqual(expected);
  });
});
