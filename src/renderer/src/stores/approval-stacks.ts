// Cards waiting for an answer, and the stacks they form: when one turn of the model proposes
// several calls at once, they wait together and are answered together or one by one. Pure, so
// the summary ("3 edits in 2 files, 1 command") is tested under Node.
import type { ToolItem, TraceItem } from './trace-model';

export interface StackMember {
  /** The trace item's id. */
  readonly itemId: string;
  readonly requestId: string;
  readonly argsHash: string;
}

export interface ApprovalStack {
  /** The run the stack belongs to. */
  readonly runId: string;
  readonly members: readonly StackMember[];
  /** "3 edits in 2 files, 1 command". */
  readonly summary: string;
}

export interface Stacks {
  /** Per pending call: its place among all waiting cards (1-based) and how many wait. */
  readonly queue: ReadonlyMap<string, { readonly position: number; readonly count: number }>;
  /** Per pending call that is in a stack of two or more: the stack. */
  readonly stackOf: ReadonlyMap<string, ApprovalStack>;
}

export function approvalStacks(items: readonly TraceItem[]): Stacks {
  const waiting = items.filter(
    (item): item is ToolItem & { approval: NonNullable<ToolItem['approval']> } =>
      item.kind === 'tool' && item.approval?.answer === null,
  );
  const queue = new Map(
    waiting.map((tool, i) => [tool.id, { position: i + 1, count: waiting.length }]),
  );
  const byRun = new Map<string, typeof waiting>();
  for (const tool of waiting) byRun.set(tool.runId, [...(byRun.get(tool.runId) ?? []), tool]);
  const stackOf = new Map<string, ApprovalStack>();
  for (const [runId, tools] of byRun) {
    if (tools.length < 2) continue;
    const stack: ApprovalStack = {
      runId,
      members: tools.map((t) => ({
        itemId: t.id,
        requestId: t.approval.requestId,
        argsHash: t.approval.argsHash,
      })),
      summary: stackSummary(tools),
    };
    for (const tool of tools) stackOf.set(tool.id, stack);
  }
  return { queue, stackOf };
}

export function stackSummary(tools: readonly ToolItem[]): string {
  const files = new Set<string>();
  let edits = 0;
  let commands = 0;
  let fetches = 0;
  let others = 0;
  for (const tool of tools) {
    const preview = tool.approval?.preview;
    switch (preview?.kind) {
      case 'diff':
        edits += 1;
        files.add(preview.path);
        break;
      case 'command':
        commands += 1;
        break;
      case 'url':
        fetches += 1;
        break;
      default:
        others += 1;
    }
  }
  const parts: string[] = [];
  if (edits > 0) parts.push(`${count(edits, 'edit')} in ${count(files.size, 'file')}`);
  if (commands > 0) parts.push(count(commands, 'command'));
  if (fetches > 0) parts.push(count(fetches, 'fetch', 'fetches'));
  if (others > 0) parts.push(count(others, 'other call'));
  return parts.join(', ');
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
