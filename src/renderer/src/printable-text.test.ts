import { describe, expect, it } from 'vitest';
import { printableText } from './printable-text';

describe('printableText', () => {
  it.each<[string, string, string]>([
    ['colours', '\u001b[32mgreen\u001b[0m', 'green'],
    ['a window title (OSC)', '\u001b]0;pwned\u0007text', 'text'],
    ['CRLF', 'a\r\nb', 'a\nb'],
    ['bell and backspace', 'a\u0007b\u0008c', 'abc'],
    ['tabs and newlines stay', 'a\tb\nc', 'a\tb\nc'],
    ['C1 controls', 'a\u009bb', 'ab'],
  ])('%s', (_name, input, expected) => {
    expect(printableText(input)).toBe(expected);
  });
});
