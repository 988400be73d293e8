import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat-message';
import {
  byteEstimate,
  loadTokenizer,
  MessageCounter,
  utf8Bound,
  type TextCounter,
  type TokenEncoding,
} from './token-counter';

/** tiktoken's own test plan, as gpt-tokenizer ships it: encoding, sample, expected tokens. */
function referenceCases(encoding: TokenEncoding): { sample: string; tokens: number }[] {
  const file = join(__dirname, '../../../node_modules/gpt-tokenizer/data/TestPlans.txt');
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n\n')
    .map((block) => block.split('\n'))
    .filter(([name]) => name === `EncodingName: ${encoding}`)
    .map(([, sample, encoded]) => ({
      sample: (sample ?? '').slice('Sample: '.length),
      tokens: (JSON.parse((encoded ?? '').slice('Encoded: '.length)) as number[]).length,
    }));
}

describe('token counts against the reference strings', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)('%s', async (encoding) => {
    const cases = referenceCases(encoding);
    expect(cases.length).toBeGreaterThan(50);
    const tokenizer = await loadTokenizer(encoding);
    const wrong = cases.filter((c) => tokenizer.count(c.sample) !== c.tokens);
    expect(wrong).toEqual([]);
  });

  it('counts text that spells a special token as the plain text it is', async () => {
    const tokenizer = await loadTokenizer('o200k_base');
    expect(tokenizer.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  // The first request of a session is fitted by this bound while the tokenizer loads
  // (tokenizer-handover.ts): it must never count fewer tokens than the tokenizer.
  it.each(['o200k_base', 'cl100k_base'] as const)(
    'the UTF-8 byte bound is never below %s',
    async (encoding) => {
      const tokenizer = await loadTokenizer(encoding);
      const bound = utf8Bound();
      const samples = [
        ...referenceCases(encoding).map((c) => c.sample),
        '<|endoftext|><|im_start|>system<|im_end|>',
        '日本語のテキストと한국어 텍스트',
        '🦊🐶🧑‍💻 emoji 🏳️‍🌈',
        '\u0000\u0001\u007f ~`!@#$%^&*()',
        Array.from({ length: 2000 }, (_, i) => String.fromCharCode(32 + ((i * 7919) % 95))).join(
          '',
        ),
        readFileSync(join(__dirname, 'context.ts'), 'utf8'),
      ];
      const below = samples.filter((text) => bound.count(text) < tokenizer.count(text));
      expect(below).toEqual([]);
    },
  );

  it('estimates 2.5 bytes a token where the encoding is not known', () => {
    expect(byteEstimate().count('abcde')).toBe(2);
    expect(byteEstimate().count('日本')).toBe(3);
  });
});

describe('message counts', () => {
  function spyCounter(): { counter: TextCounter; calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      counter: {
        kind: 'estimate',
        name: 'spy',
        count: (text) => {
          calls.push(text);
          return text.length;
        },
      },
    };
  }

  it('counts content, call ids, names and arguments, and each message once', () => {
    const { counter, calls } = spyCounter();
    const messages = new MessageCounter(counter);
    const message: ChatMessage = {
      role: 'assistant',
      content: 'hi',
      tool_calls: [{ id: 'id1', type: 'function', function: { name: 'read', arguments: '{}' } }],
    };
    // 4 per message, 8 per call, then the texts.
    expect(messages.message(message)).toBe(4 + 2 + 8 + 3 + 4 + 2);
    expect(messages.messages([message, message])).toBe(2 * 23);
    expect(calls).toEqual(['hi', 'id1', 'read', '{}']);
  });

  it('counts the system prompt and the tool list once per distinct text', () => {
    const { counter, calls } = spyCounter();
    const messages = new MessageCounter(counter);
    messages.fixedMessage('system');
    messages.fixedMessage('system');
    expect(messages.tools('[]')).toBe(0);
    expect(messages.tools('[{"x":1}]')).toBe(16 + 9);
    expect(calls).toEqual(['system', '[{"x":1}]']);
  });
});

describe('calibration from reported usage', () => {
  const root = join(__dirname, '../../..');
  // Code pinned by the lockfile (a file of ours would change the figures whenever it is edited).
  const code = readFileSync(join(root, 'node_modules/gpt-tokenizer/src/GptEncoding.ts'), 'utf8');
  const prose = readFileSync(join(root, 'SECURITY.md'), 'utf8');
  const json = readFileSync(join(root, 'package-lock.json'), 'utf8').slice(0, 20_000);
  const cjk = referenceCases('cl100k_base')
    .map((c) => c.sample)
    .filter((s) => /[\u3040-\u30ff\uac00-\ud7af\u4e00-\u9fff]/.test(s))
    .join('\n')
    .repeat(30);

  /** A provider that counts with cl100k, 3 tokens a message around it, like OpenAI's templates. */
  async function providerCount(messages: readonly ChatMessage[]): Promise<number> {
    const tokenizer = await loadTokenizer('cl100k_base');
    let tokens = 3;
    for (const message of messages) tokens += 3 + tokenizer.count(message.content ?? '');
    return tokens;
  }

  /** A session growing over four requests, all of one kind of content. */
  function session(text: string): ChatMessage[][] {
    const requests: ChatMessage[][] = [];
    const history: ChatMessage[] = [{ role: 'user', content: 'look at this' }];
    for (let i = 0; i < 4; i++) {
      const start = (i * text.length) / 4;
      history.push({ role: 'user', content: text.slice(start, start + text.length / 4) });
      requests.push([...history]);
    }
    return requests;
  }

  it.each([
    { kind: 'code', text: code },
    { kind: 'prose', text: prose },
    { kind: 'JSON', text: json },
    { kind: 'Japanese and Korean', text: cjk },
  ])(
    'the estimate of $kind comes within a few per cent once calibrated',
    async ({ kind, text }) => {
      const counter = new MessageCounter(byteEstimate());
      const errors: number[] = [];
      for (const request of session(text)) {
        const raw = counter.messages(request);
        const reported = await providerCount(request);
        errors.push(counter.corrected(raw) / reported - 1);
        expect(counter.calibrate(raw, reported).kind).toBe('applied');
      }
      const [first, ...calibrated] = errors;
      console.log(
        `estimate error on ${kind}: ${((first ?? 0) * 100).toFixed(1)} % uncalibrated, then ` +
          calibrated.map((e) => `${(e * 100).toFixed(1)} %`).join(', '),
      );
      // Uncalibrated it errs towards too many; calibrated too, and not by much.
      expect(first).toBeGreaterThan(0);
      for (const error of calibrated) {
        expect(error).toBeGreaterThanOrEqual(-0.01);
        expect(error).toBeLessThanOrEqual(0.12);
      }
    },
  );

  it('ignores a report no tokenizer could give (a placeholder figure)', () => {
    const counter = new MessageCounter(byteEstimate());
    expect(counter.calibrate(5000, 10)).toMatchObject({ kind: 'ignored' });
    expect(counter.calibrate(100, 90)).toMatchObject({ kind: 'ignored' });
    expect(counter.factor).toBe(1);
  });

  it('learns nothing while counting by the upper bound, and afresh once the tokenizer counts', async () => {
    const counter = new MessageCounter(utf8Bound());
    const message: ChatMessage = { role: 'user', content: 'x'.repeat(4000) };
    expect(counter.message(message)).toBe(4004);
    expect(counter.calibrate(4004, 600)).toMatchObject({ kind: 'ignored' });
    counter.overflowed(4004, 4500);
    expect(counter.factor).toBeGreaterThan(1);
    const raised = counter.factor;
    const tokenizer = await loadTokenizer('o200k_base');
    counter.countWith(tokenizer);
    // Cached counts go with the old counter; a factor a refusal raised stays.
    expect(counter.message(message)).toBe(4 + tokenizer.count(message.content!));
    expect(counter.factor).toBe(raised);
    expect(counter.calibrate(5000, 5500).kind).toBe('applied');
  });

  it('never trusts a real tokenizer below its own count', async () => {
    const counter = new MessageCounter(await loadTokenizer('o200k_base'));
    expect(counter.calibrate(5000, 4000)).toEqual({ kind: 'applied', ratio: 0.8, factor: 1 });
    expect(counter.calibrate(5000, 5500).kind).toBe('applied');
    expect(counter.factor).toBeCloseTo(1.1 * 1.02);
  });
});
