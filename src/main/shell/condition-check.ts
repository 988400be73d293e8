// Conditions that look read-only but make bash evaluate text: `-v NAME` and `-R NAME` evaluate an
// array subscript (and any $(...) inside it, even from single-quoted text), and the arithmetic
// operators of `[[ ]]` evaluate both operands as arithmetic, which expands subscripts too. A
// variable name is no safer than the text itself: its value is evaluated recursively.
import type { SyntaxNode } from './bash-parser';

const EVALUATING_UNARY = new Set(['-v', '-R']);
const ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const INTEGER = /^\s*[-+]?\d+\s*$/;

function literal(node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'number' || node.type === 'word') return node.text;
  if (node.type === 'raw_string') return node.text.slice(1, -1);
  return undefined;
}

function collect(node: SyntaxNode, found: SyntaxNode[]): void {
  if (node.type === 'test_operator') found.push(node);
  for (const child of node.children) if (child) collect(child, found);
}

/** Why a `[ ]` / `[[ ]]` node makes bash evaluate something, if it does. */
export function checkConditionNode(node: SyntaxNode): string | undefined {
  const operators: SyntaxNode[] = [];
  collect(node, operators);
  for (const operator of operators) {
    if (EVALUATING_UNARY.has(operator.text)) {
      return `a ${operator.text} test evaluates array subscripts: ${node.text}`;
    }
    if (!ARITHMETIC.has(operator.text)) continue;
    const parent = operator.parent;
    const left = literal(parent?.childForFieldName('left') ?? null);
    const right = literal(parent?.childForFieldName('right') ?? null);
    if (
      parent?.type !== 'binary_expression' ||
      !INTEGER.test(left ?? '') ||
      !INTEGER.test(right ?? '')
    ) {
      return `an arithmetic comparison evaluates its operands: ${node.text}`;
    }
  }
  // The grammar may not mark every operator; a token that looks like one asks all the same.
  const tokens = node.text.split(/\s+/);
  if (operators.length === 0 && tokens.some((t) => EVALUATING_UNARY.has(t) || ARITHMETIC.has(t))) {
    return `a condition that may evaluate its operands: ${node.text}`;
  }
  return undefined;
}

/** The same for `test ARGS` and `[ ARGS ]`, judged on the words after quote removal. */
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
