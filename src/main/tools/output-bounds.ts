// Tool output goes into the model's context, so it is bounded: the head and the tail are kept
// (errors tend to be at the end), and a marker says how much was cut from the middle.
import { groupDigits } from '../../shared/digit-groups';

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

export function boundOutput(text: string, maxChars: number = DEFAULT_MAX_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const headChars = Math.floor(maxChars * 0.6);
  const tailChars = maxChars - headChars;
  const head = text.slice(0, headChars);
  const tail = text.slice(text.length - tailChars);
  const cut = text.length - headChars - tailChars;
  const marker =
    `\n\n[… ${groupDigits(cut)} characters cut from the middle ` +
    `(${groupDigits(text.length)} in all); ask for a narrower range or a more ` +
    `specific search to see that part …]\n\n`;
  return head + marker + tail;
}
