// Conditions that look read-only but make bash evaluate text: `-v NAME` and `-R NAME` evaluate an
// array subscript (and any $(...) inside it, even from single-quoted text), and the arithmetic
// operators of `[[ ]]` evaluate both operands as arithmetic, which expands subscripts too. A
// variable name is no safer than the text itself: its value is evaluated recursively.
import type { SyntaxNode } from './bash-parser';
import { newFindings, wordValue } from './command-words';

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

/** Operators that look at a file: their operands are paths, judged like any other argument. */
export const FILE_TEST_OPERATORS: ReadonlySet<string> = new Set([
  ...['-a', '-e', '-f', '-d', '-r', '-w', '-x', '-s', '-L', '-h', '-p', '-S', '-b', '-c'],
  ...['-g', '-u', '-k', '-O', '-G', '-N', '-nt', '-ot', '-ef'],
]);

const WORDS = new Set(['word', 'number', 'string', 'raw_string', 'concatenation']);

function words(node: SyntaxNode, found: string[]): void {
  // The grammar reads a leading `~` in `[[ ]]` as an operator of its own: keep the whole word.
  if (node.type === 'unary_expression' && node.text.startsWith('~')) found.push(node.text);
  else if (WORDS.has(node.type)) found.push(wordValue(node, newFindings()));
  else for (const child of node.namedChildren) if (child) words(child, found);
}

/** The words a file test in a `[ ]` / `[[ ]]` node names (`-e X`, `A -nt B`), unquoted. */
export function fileTestOperands(node: SyntaxNode): string[] {
  const operators: SyntaxNode[] = [];
  collect(node, operators);
  const found: string[] = [];
  for (const operator of operators) {
    const parent = operator.parent;
    if (!parent || !FILE_TEST_OPERATORS.has(operator.text)) continue;
    for (const child of parent.namedChildren) {
      if (child && child.id !== operator.id) words(child, found);
    }
  }
  return found;
}
