// Conditions that look read-only but make bash evaluate text: `-v NAME` and `-R NAME` evaluate an
// array subscript (and any $(...) inside it, even from single-quoted text), and the arithmetic
// comparisons (-eq, -lt …) evaluate both operands as arithmetic, which expands subscripts too. A
// variable name is no safer than the text itself: its value is evaluated recursively.
const EVALUATING_UNARY = new Set(['-v', '-R']);
const ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const INTEGER = /^\s*[-+]?\d+\s*$/;

/** Why `test ARGS` / `[ ARGS ]` makes bash evaluate something, judged on the words after quote removal. */
export function checkTestArgs(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (EVALUATING_UNARY.has(arg)) return `a ${arg} test evaluates array subscripts`;
    if (
      ARITHMETIC.has(arg) &&
      !(INTEGER.test(args[index - 1] ?? '') && INTEGER.test(args[index + 1] ?? ''))
    ) {
      return `an arithmetic comparison evaluates its operands: ${args.join(' ')}`;
    }
  }
  return undefined;
}
