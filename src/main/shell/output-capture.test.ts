import { describe, expect, it } from 'vitest';
import { cleanTerminalText, OutputCapture, resolveOverwrites } from './output-capture';

describe('resolveOverwrites', () => {
  it.each([
    ['plain\nlines', 'plain\nlines'],
    ['10%\r20%\r100%', '100%'],
    ['abcdef\rXY', 'XYcdef'],
    ['line\r\nnext\r\n', 'line\nnext\n'],
    ['abc\b\bZ', 'aZc'],
    ['progress: 1/3\rprogress: 3/3\r\ndone', 'progress: 3/3\ndone'],
  ])('%j → %j', (raw, shown) => {
    expect(resolveOverwrites(raw)).toBe(shown);
  });
});

describe('cleanTerminalText', () => {
  it('strips colours and cursor sequences', () => {
    expect(cleanTerminalText('\u001b[1;31merror\u001b[0m: bad\r\n\u001b[2K\u001b[Gok')).toBe(
      'error: bad\nok',
    );
  });
});

describe('OutputCapture', () => {
  it('keeps short output whole', () => {
    const capture = new OutputCapture({ budgetBytes: 1000 });
    capture.push('\u001b[32mhello\u001b[0m\r\n');
    capture.push('world\r\n');
    expect(capture.result()).toEqual({ text: 'hello\nworld\n', totalBytes: 23, truncated: false });
  });

  it('keeps output that only just exceeds the raw head whole when the clean text fits', () => {
    const capture = new OutputCapture({ budgetBytes: 300 });
    for (let i = 0; i < 20; i++) capture.push(`\u001b[31m${i}\u001b[0m\r\n`);
    const result = capture.result();
    expect(result.truncated).toBe(false);
    expect(result.text.split('\n').filter(Boolean)).toHaveLength(20);
  });

  it('bounds 50 MB of output to head and tail within the budget', () => {
    const budget = 8 * 1024;
    const capture = new OutputCapture({ budgetBytes: budget });
    const line = `${'x'.repeat(98)}\r\n`;
    const chunk = line.repeat(1000); // 100 kB
    let maxRetained = 0;
    capture.push('FIRST LINE\r\n');
    for (let i = 0; i < 500; i++) {
      capture.push(chunk);
      maxRetained = Math.max(maxRetained, capture.retainedLength);
    }
    capture.push('LAST LINE\r\n');
    const result = capture.result();
    expect(result.totalBytes).toBe(12 + 500 * chunk.length + 11);
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(budget + 100);
    expect(result.text.startsWith('FIRST LINE\n')).toBe(true);
    expect(result.text.endsWith('LAST LINE\n')).toBe(true);
    expect(result.text).toContain('bytes of output left out');
    // What is held never grows with the output: a few budgets plus one chunk.
    expect(maxRetained).toBeLessThan(budget * 3 + chunk.length);
  });

  it('does not split a multi-byte character at the budget edge', () => {
    const capture = new OutputCapture({ budgetBytes: 600 });
    for (let i = 0; i < 200; i++) capture.push('é€😀\r\n');
    const { text } = capture.result();
    expect(text).not.toContain('\uFFFD');
  });
});
