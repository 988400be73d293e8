import { describe, expect, it } from 'vitest';
import type { ToolPreview } from '../../../shared/tool-types';
import { approvalStacks } from './approval-stacks';
import type { ToolItem, TraceItem } from './trace-model';

function waiting(id: string, runId: string, preview: ToolPreview, answered = false): ToolItem {
  return {
    kind: 'tool',
    id,
    callId: id,
    runId,
    name: 'x',
    args: {},
    effect: 'write',
    status: answered ? 'done' : 'waiting',
    startedAt: 0,
    output: '',
    outputTotal: 0,
    approval: {
      requestId: `q-${id}`,
      argsHash: `h-${id}`,
      at: 0,
      name: 'x',
      args: {},
      effect: 'write',
      preview,
      reasons: [],
      answer: answered ? { kind: 'allow-once' } : null,
    },
  };
}

const diff = (path: string): ToolPreview => ({
  kind: 'diff',
  path,
  diff: '',
  summary: '',
  isNewFile: false,
});
const command: ToolPreview = {
  kind: 'command',
  command: 'npm test',
  cwd: '/p',
  parts: [],
  sandbox: { kind: 'none', available: false, description: '' },
};

describe('approvalStacks', () => {
  it('stacks the waiting calls of one run with a summary, and queues every waiting call', () => {
    const items: TraceItem[] = [
      waiting('old', 'r0', diff('x'), true),
      waiting('a', 'r1', diff('src/a.ts')),
      waiting('b', 'r1', diff('src/a.ts')),
      waiting('c', 'r1', diff('README.md')),
      waiting('d', 'r1', command),
      waiting('e', 'r2', command),
    ];
    const { queue, stackOf } = approvalStacks(items);
    expect([...queue.entries()]).toEqual([
      ['a', { position: 1, count: 5 }],
      ['b', { position: 2, count: 5 }],
      ['c', { position: 3, count: 5 }],
      ['d', { position: 4, count: 5 }],
      ['e', { position: 5, count: 5 }],
    ]);
    const stack = stackOf.get('a');
    expect(stack?.summary).toBe('3 edits in 2 files, 1 command');
    expect(stack?.members.map((m) => m.requestId)).toEqual(['q-a', 'q-b', 'q-c', 'q-d']);
    expect(stackOf.get('d')).toBe(stack);
    // A call waiting alone is no stack.
    expect(stackOf.has('e')).toBe(false);
    expect(stackOf.has('old')).toBe(false);
  });
});
