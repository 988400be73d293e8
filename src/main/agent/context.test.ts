import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/events';
import type { ChatMessage } from './chat-message';
import {
  ConversationContext,
  messageDigest,
  restoredCompaction,
  SUMMARY_HEADER,
  type FitResult,
} from './context';
import { byteEstimate, MessageCounter } from './token-counter';

/** Budgets in these tests are in estimated tokens (2.5 bytes each), with nothing fixed around them. */
function fitter(): { context: ConversationContext; counter: MessageCounter } {
  const counter = new MessageCounter(byteEstimate());
  return { context: new ConversationContext(counter), counter };
}

const limits = (promptTokens: number) => ({ promptTokens, fixedRaw: 0 });

function fits(result: FitResult): ChatMessage[] {
  if (result.kind !== 'fits') throw new Error(`expected a fit, got ${result.kind}`);
  return result.messages;
}

const call = (id: string, name = 'read', args = '{}'): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
});
const answer = (id: string, content: string): ChatMessage => ({
  role: 'tool',
  tool_call_id: id,
  content,
});

/** Every call answered right after its message, every answer after its call. */
function pairsIntact(messages: readonly ChatMessage[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ChatMessage;
    if (message.role === 'tool') return false;
    for (const c of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
      const next = messages[++i];
      if (next?.role !== 'tool' || next.tool_call_id !== c.id) return false;
    }
  }
  return true;
}

describe('history within a budget', () => {
  const big = 'x'.repeat(4000);
  const history: ChatMessage[] = [
    { role: 'user', content: 'first task' },
    call('a'),
    answer('a', big),
    { role: 'assistant', content: 'done one' },
    { role: 'user', content: 'second task' },
    call('b'),
    answer('b', big),
    call('c'),
    answer('c', big),
  ];

  it('leaves a history that fits alone', () => {
    const { context } = fitter();
    expect(fits(context.fit(history, limits(10_000), { compact: true }))).toEqual(history);
  });

  it('shrinks older tool outputs first, oldest first, and keeps the latest turns whole', () => {
    const { context, counter } = fitter();
    const sent = fits(context.fit(history, limits(3_900), { compact: true }));
    expect(sent).toHaveLength(history.length);
    expect(sent[2]?.content).toMatch(/^x{400}\n\[… older tool output shortened to save context/);
    expect(sent.slice(5)).toEqual(history.slice(5));
    expect(counter.messages(sent)).toBeLessThanOrEqual(3_900);
    expect(history[2]?.content).toBe(big);
  });

  it('then asks for a compaction of the older part, cut before a call of the model', () => {
    const { context } = fitter();
    const result = context.fit(history, limits(2_000), { compact: true });
    expect(result.kind).toBe('compact');
    if (result.kind !== 'compact') return;
    expect(history[result.keptFrom]?.role).toBe('assistant');
    expect(result.material).toHaveLength(result.keptFrom);
  });

  it('without compaction, leaves out whole old turns, never the latest task nor a pair', () => {
    const old = (n: number) => `old task ${n}: ${'u'.repeat(3000)}`;
    const tasks: ChatMessage[] = [
      { role: 'user', content: old(1) },
      call('a'),
      answer('a', 'ok'),
      { role: 'user', content: old(2) },
      call('b'),
      answer('b', 'ok'),
      { role: 'user', content: 'second task' },
      call('c'),
      answer('c', 'ok'),
    ];
    const { context, counter } = fitter();
    const sent = fits(context.fit(tasks, limits(1_500), { compact: false }));
    expect(counter.messages(sent)).toBeLessThanOrEqual(1_500);
    expect(sent.map((m) => m.content)).not.toContain(old(1));
    expect(sent.slice(-3)).toEqual(tasks.slice(-3));
    expect(pairsIntact(sent)).toBe(true);
  });

  it('says when even the latest task does not fit', () => {
    const { context } = fitter();
    const result = context.fit([{ role: 'user', content: 'y'.repeat(30_000) }], limits(2_000), {
      compact: true,
    });
    expect(result).toMatchObject({ kind: 'too-big', limit: 2_000 });
  });
});

describe('shrinking is kept', () => {
  it('sends the same bytes for the older part while the history grows within the budget', () => {
    const { context } = fitter();
    const history: ChatMessage[] = [{ role: 'user', content: 'task' }];
    const requests: string[][] = [];
    for (let i = 0; i < 40; i++) {
      history.push(call(`c${i}`), answer(`c${i}`, `${i} `.repeat(1500)));
      const sent = fits(context.fit(history, limits(30_000), { compact: false }));
      requests.push(sent.map((m) => JSON.stringify(m)));
    }
    // Each request starts with the previous one, except where shrinking moved on: and then the
    // next few requests only append (the low-water mark leaves room).
    let changes = 0;
    for (let i = 1; i < requests.length; i++) {
      const before = requests[i - 1] as string[];
      const now = requests[i] as string[];
      const same = before.every((m, k) => k >= before.length - 4 || now[k] === m);
      if (!same) changes++;
    }
    expect(changes).toBeGreaterThan(0);
    expect(changes).toBeLessThanOrEqual(requests.length / 4);
  });
});

describe('one long task within a budget', () => {
  const output = (i: number): string => `output ${i} start\n${'x'.repeat(40_000)}\noutput ${i} end`;
  const history: ChatMessage[] = [{ role: 'user', content: 'task' }];
  for (let i = 0; i < 20; i++) history.push(call(`c${i}`, 'read_file'), answer(`c${i}`, output(i)));

  it('shrinks the older outputs to their start, keeps the last two whole and every pair', () => {
    const { context, counter } = fitter();
    const sent = fits(context.fit(history, limits(100_000), { compact: true }));
    expect(counter.messages(history)).toBeGreaterThan(100_000);
    expect(counter.messages(sent)).toBeLessThanOrEqual(100_000);
    expect(sent.map((m) => m.role)).toEqual(history.map((m) => m.role));
    expect(pairsIntact(sent)).toBe(true);
    // The oldest are shrunk (as far as needed and a little more), the newer ones left whole.
    const shrunk = sent.filter(
      (m) => m.role === 'tool' && m.content !== output(Number(m.tool_call_id.slice(1))),
    );
    expect(shrunk.length).toBeGreaterThan(10);
    shrunk.forEach((m, i) => {
      expect(m.content).toMatch(new RegExp(`^output ${i} start\\nx+\\n\\[… older`));
    });
    expect(sent.at(-1)?.content).toBe(output(19));
    expect(sent.at(-3)?.content).toBe(output(18));
  });

  it('as a last resort shrinks the latest outputs to their start and end', () => {
    const { context, counter } = fitter();
    const sent = fits(context.fit(history, limits(3_000), { compact: false }));
    expect(counter.messages(sent)).toBeLessThanOrEqual(3_000);
    expect(sent.at(-1)?.content).toMatch(
      /^output 19 start[\s\S]*output shrunk[\s\S]*output 19 end$/,
    );
    expect(sent[0]).toEqual({ role: 'user', content: 'task' });
    expect(pairsIntact(sent)).toBe(true);
  });
});

describe('long arguments within a budget', () => {
  it('keeps the short fields and the first lines of a long one, as valid JSON', () => {
    const content = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n');
    const args = JSON.stringify({ path: 'src/big.ts', content });
    const history: ChatMessage[] = [{ role: 'user', content: 'write things' }];
    for (let i = 0; i < 5; i++)
      history.push(call(`w${i}`, 'write_file', args), answer(`w${i}`, 'written'));
    const { context, counter } = fitter();
    const sent = fits(context.fit(history, limits(20_000), { compact: false }));
    expect(counter.messages(history)).toBeGreaterThan(200_000);
    expect(counter.messages(sent)).toBeLessThanOrEqual(20_000);
    expect(pairsIntact(sent)).toBe(true);
    const first = sent[1]?.role === 'assistant' ? sent[1].tool_calls?.[0]?.function.arguments : '';
    expect(JSON.parse(first ?? '')).toEqual({
      path: 'src/big.ts',
      content: `line 0\nline 1\nline 2\n[… ${content.length.toLocaleString('en-US')} characters (20,000 lines) in all; the rest cut to save context, this call was answered …]`,
    });
  });

  it('turns arguments that are not JSON into a JSON note', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'task' },
      call('a', 'write_file', `{"path": ${'z'.repeat(5000)}`),
      answer('a', 'Error: the arguments were not valid JSON'),
      call('b'),
      answer('b', 'ok'),
      call('c'),
      answer('c', 'ok'),
    ];
    const { context } = fitter();
    const sent = fits(context.fit(history, limits(900), { compact: false }));
    const text = sent[1]?.role === 'assistant' ? sent[1].tool_calls?.[0]?.function.arguments : '';
    expect(JSON.parse(text ?? '')).toEqual({
      shortened: '5009 characters of arguments, cut to save context; this call was answered',
    });
  });
});

describe('a huge write of the model', () => {
  it('is sent whole while it is a latest turn, then as its path, size and first lines, even with room', () => {
    const content = Array.from({ length: 30_000 }, (_, i) => `const line${i} = ${i};`).join('\n');
    expect(content.length).toBeGreaterThan(600_000);
    const write = call('w', 'write_file', JSON.stringify({ path: 'src/big.ts', content }));
    const history: ChatMessage[] = [
      { role: 'user', content: 'generate the table' },
      write,
      answer('w', 'Created src/big.ts.'),
    ];
    const { context } = fitter();
    const roomy = limits(10_000_000);
    expect(fits(context.fit(history, roomy, { compact: true }))[1]).toBe(write);
    history.push(call('r1'), answer('r1', 'ok'), call('r2'), answer('r2', 'ok'));
    const sent = fits(context.fit(history, roomy, { compact: true }));
    const args = sent[1]?.role === 'assistant' ? sent[1].tool_calls?.[0]?.function.arguments : '';
    expect(JSON.parse(args ?? '')).toEqual({
      path: 'src/big.ts',
      content: `const line0 = 0;\nconst line1 = 1;\nconst line2 = 2;\n[… ${content.length.toLocaleString('en-US')} characters (30,000 lines) in all; the rest cut to save context, this call was answered …]`,
    });
    expect(JSON.stringify(sent).length).toBeLessThan(2000);
    // The same shortened bytes in every later request (the provider's cache keeps its prefix).
    history.push(call('r3'), answer('r3', 'ok'));
    expect(fits(context.fit(history, roomy, { compact: true }))[1]).toBe(sent[1]);
    // The stored history is not changed.
    expect(history[1]).toBe(write);
  });

  it('is shortened while still a latest turn when the window cannot hold it, without a summary', () => {
    const content = 'x'.repeat(600_000);
    const history: ChatMessage[] = [
      { role: 'user', content: 'generate the table' },
      call('r', 'read', JSON.stringify({ path: 'src/table.ts' })),
      answer('r', 'y'.repeat(4000)),
      call('w', 'write_file', JSON.stringify({ path: 'src/big.ts', content })),
      answer('w', 'Created src/big.ts.'),
    ];
    const { context, counter } = fitter();
    const sent = fits(context.fit(history, limits(50_000), { compact: true }));
    expect(counter.messages(sent)).toBeLessThan(5000);
    // The read before it was whole: only the write was in the way.
    expect(sent[2]).toBe(history[2]);
    const args = sent[3]?.role === 'assistant' ? sent[3].tool_calls?.[0]?.function.arguments : '';
    expect(JSON.parse(args ?? '')).toMatchObject({ path: 'src/big.ts' });
  });
});

describe('a long text of the model within a budget', () => {
  it('is cut to its head and tail with a note, when nothing else is left to shrink', () => {
    const text = `start ${'t'.repeat(300_000)} end`;
    const history: ChatMessage[] = [
      { role: 'user', content: 'task' },
      { ...call('c'), content: text },
      answer('c', 'ok'),
    ];
    const { context, counter } = fitter();
    const sent = fits(context.fit(history, limits(8_000), { compact: true }));
    expect(counter.messages(sent)).toBeLessThanOrEqual(8_000);
    expect(sent[1]?.content).toMatch(
      /^start t+\n\[… your earlier message shortened to save context: first and last 400 characters kept, \d+ cut …\]\nt+ end$/,
    );
    expect(history[1]?.content).toBe(text);
  });
});

describe('after a compaction', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'build the parser' },
    call('a'),
    answer('a', 'a'.repeat(3000)),
    call('b'),
    answer('b', 'b'.repeat(3000)),
    call('c'),
    answer('c', 'c'.repeat(300)),
  ];

  it('sends the summary in place of the older part, with the latest task in its words', () => {
    const { context } = fitter();
    context.compacted({ summary: 'The person wants a parser; a.ts was read.', keptFrom: 5 });
    const sent = fits(context.fit(history, limits(10_000), { compact: true }));
    expect(sent).toEqual([
      {
        role: 'user',
        content: `${SUMMARY_HEADER}\n\nThe person wants a parser; a.ts was read.\n\nThe person's current task, in their words:\n\nbuild the parser`,
      },
      ...history.slice(5),
    ]);
    // A later task is sent as itself: the summary no longer repeats the old one.
    const later = [...history, { role: 'user', content: 'now test it' } as ChatMessage];
    const next = fits(context.fit(later, limits(10_000), { compact: true }));
    expect(next[0]?.content).toBe(`${SUMMARY_HEADER}\n\nThe person wants a parser; a.ts was read.`);
    expect(next.at(-1)).toEqual({ role: 'user', content: 'now test it' });
  });

  it('folds the earlier summary into the next compaction', () => {
    const { context } = fitter();
    context.compacted({ summary: 'first summary', keptFrom: 3 });
    const longer = [...history];
    for (let i = 0; i < 6; i++) longer.push(call(`d${i}`), answer(`d${i}`, 'd'.repeat(3000)));
    const result = context.fit(longer, limits(2_000), { compact: true });
    expect(result.kind).toBe('compact');
    if (result.kind !== 'compact') return;
    expect(result.material[0]?.content).toContain('first summary');
    expect(result.keptFrom).toBeGreaterThan(3);
    expect(longer[result.keptFrom]?.role).toBe('assistant');
  });

  it('is found again in a reopened session by index, or by digest when the index moved', () => {
    const event: RunEvent = {
      type: 'context-compacted',
      runId: 'r',
      by: 'auto',
      summary: 'sum',
      keptFrom: 5,
      keptFromDigest: messageDigest(history[5] as ChatMessage),
      replacedMessages: 5,
      tokensBefore: 1,
      tokensAfter: 1,
      at: 0,
    };
    expect(restoredCompaction(history, [event])).toEqual({
      compaction: { summary: 'sum', keptFrom: 5 },
    });
    const moved = [history[0] as ChatMessage, ...history];
    expect(restoredCompaction(moved, [event]).compaction?.keptFrom).toBe(6);
    expect(restoredCompaction(history.slice(0, 4), [event]).problem).toMatch(/no longer matches/);
    expect(restoredCompaction(history, [])).toEqual({});
  });
});
