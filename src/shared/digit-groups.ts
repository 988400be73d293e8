// Whole numbers with thousands separators, as `toLocaleString('en-US')` writes them. The first
// toLocaleString call of a process loads ICU's locale data (30-60 ms): too much for a schema
// built at start-up or for the first long output of a session.

/** `1234567` → `"1,234,567"`; anything but a safe integer is left to toLocaleString. */
export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let at = head; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${out}` : out;
}
