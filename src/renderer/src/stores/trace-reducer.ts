// Folds RunEvents into the trace. Pure (the caller passes the clock), so the session view's logic
// is tested without a DOM. One event copies the item list once; a reopened session's thousands
// of events are folded in one pass over one copy (applyRunEvents).
import type { RunEvent } from '../../../shared/events';
import { isAllow } from '../../../shared/tool-types';
import type { ApprovalState, ToolItem, ToolStatus, TraceItem, TraceState } from './trace-model';
import { withEdit } from './edited-args';
import {
  compactedNotice,
  describeRevert,
  errorNotice,
  finishNotice,
  instructionsNotice,
  RETRY_NOTICE,
} from './trace-notices';

/** Live output kept per tool card; the head is dropped first (the end is what matters). */
export const MAX_TOOL_OUTPUT = 200_000;

export function applyRunEvent(state: TraceState, event: RunEvent, now = 0): TraceState {
  return applyRunEvents(state, [event], now);
}

export function applyRunEvents(
  state: TraceState,
  events: readonly RunEvent[],
  now = 0,
): TraceState {
  if (events.length === 0) return state;
  const draft = new Draft(state, events.length > 8);
  for (const event of events) draft.apply(event, now);
  return draft.finish();
}

/** A working copy of the state; `items` is copied once and changed in place. */
class Draft {
  private readonly items: TraceItem[];
  private activeRunId: string | null;
  private usage: TraceState['usage'];
  private session: TraceState['session'];
  private lastRequest: TraceState['lastRequest'];
  private context: TraceState['context'];
  private lastEventAt: number;
  private changed = false;
  /** Position by item id, for a batch (a single event searches from the end instead). */
  private readonly index: Map<string, number> | null;
  /** Position of the newest tool item per call id, for a batch. */
  private readonly calls: Map<string, number> | null;

  constructor(
    private readonly state: TraceState,
    indexed: boolean,
  ) {
    this.items = state.items.slice();
    this.activeRunId = state.activeRunId;
    this.usage = state.usage;
    this.session = state.session;
    this.lastRequest = state.lastRequest;
    this.context = state.context;
    this.lastEventAt = state.lastEventAt;
    this.index = indexed ? new Map(this.items.map((item, i) => [item.id, i])) : null;
    this.calls = indexed
      ? new Map(
          this.items.flatMap((item, i) =>
            item.kind === 'tool' ? [[item.callId, i] as const] : [],
          ),
        )
      : null;
  }

  finish(): TraceState {
    if (!this.changed) return this.state;
    return {
      items: this.items,
      activeRunId: this.activeRunId,
      usage: this.usage,
      session: this.session,
      lastRequest: this.lastRequest,
      context: this.context,
      lastEventAt: this.lastEventAt,
    };
  }

  apply(event: RunEvent, now: number): void {
    if (event.type === 'tool-output') {
      // Output for a call the trace does not know changes nothing.
      const updated = this.updateTool(event.callId, (tool) => ({
        output: keepTail(tool.output, event.chunk),
        outputTotal: tool.outputTotal + event.chunk.length,
      }));
      this.changed ||= updated;
      return;
    }
    this.changed = true;
    this.lastEventAt = now;
    switch (event.type) {
      case 'run-started':
        this.activeRunId = event.runId;
        this.push({
          kind: 'task',
          id: `task-${event.runId}`,
          runId: event.runId,
          text: event.task,
        });
        return;
      case 'assistant-delta': {
        const last = this.items.at(-1);
        if (last?.kind === 'assistant' && last.runId === event.runId && last.streaming) {
          this.items[this.items.length - 1] = { ...last, text: last.text + event.text };
          return;
        }
        this.pushAssistant(event.runId, event.text, true);
        return;
      }
      case 'assistant-message': {
        const last = this.items.at(-1);
        if (last?.kind === 'assistant' && last.runId === event.runId && last.streaming) {
          this.items[this.items.length - 1] = { ...last, text: event.text, streaming: false };
          return;
        }
        if (event.text.trim() !== '') this.pushAssistant(event.runId, event.text, false);
        return;
      }
      case 'tool-call-started':
        this.endStreaming(event.runId);
        this.push({
          kind: 'tool',
          id: this.freeId(event.callId),
          callId: event.callId,
          runId: event.runId,
          name: event.name,
          args: event.args,
          effect: event.effect,
          status: 'running',
          startedAt: event.at,
          output: '',
          outputTotal: 0,
        });
        return;
      case 'permission-decided':
        switch (event.decision) {
          case 'ask':
            this.updateTool(event.callId, () => ({ status: 'waiting' }));
            return;
          case 'refuse':
            this.updateTool(event.callId, () => ({ status: 'refused' }));
            return;
          case 'run':
            this.updateTool(event.callId, () => ({ runningSince: event.at ?? now }));
            return;
        }
        return;
      case 'approval-requested': {
        const { type: _t, runId, callId, requestId, at, ...fields } = event;
        const approval: ApprovalState = { ...fields, requestId, at, answer: null };
        if (!this.updateTool(callId, () => ({ status: 'waiting', approval }))) {
          // A transcript without the call's start: the card still shows, as its own item.
          this.push({
            kind: 'tool',
            id: this.freeId(callId),
            callId,
            runId,
            name: event.name,
            args: event.args,
            effect: event.effect,
            status: 'waiting',
            startedAt: at,
            output: '',
            outputTotal: 0,
            approval,
          });
        }
        return;
      }
      case 'approval-resolved': {
        const allowed = isAllow(event.answer);
        this.updateTool(event.callId, (tool) => ({
          status: allowed ? 'running' : 'refused',
          ...(allowed ? { runningSince: event.at } : {}),
          // The person's edit is what runs: the card shows it from now on.
          ...(event.edited ? { args: withEdit(tool.args, event.edited), edited: true } : {}),
          ...(tool.approval?.requestId === event.requestId
            ? {
                approval: {
                  ...tool.approval,
                  answer: event.answer,
                  by: event.by,
                  answeredAt: event.at,
                },
              }
            : {}),
        }));
        return;
      }
      case 'tool-result':
        this.updateTool(event.callId, (tool) => ({
          status: resultStatus(tool, event),
          result: event.output,
          durationMs: event.durationMs,
          ...(event.secrets !== undefined ? { secrets: event.secrets } : {}),
          ...(event.unmasked !== undefined ? { unmasked: event.unmasked } : {}),
          ...(event.provenance !== undefined ? { provenance: event.provenance } : {}),
          ...(event.changes !== undefined ? { changes: event.changes } : {}),
          ...(event.images !== undefined ? { images: event.images } : {}),
        }));
        return;
      case 'usage':
        this.usage = {
          promptTokens: this.usage.promptTokens + event.usage.promptTokens,
          completionTokens: this.usage.completionTokens + event.usage.completionTokens,
          totalTokens: this.usage.totalTokens + event.usage.totalTokens,
        };
        if (event.session) this.session = event.session;
        this.lastRequest = {
          usage: event.usage,
          ...(event.costUsd !== undefined ? { costUsd: event.costUsd } : {}),
        };
        return;
      case 'context-use': {
        const { type: _type, runId: _runId, ...context } = event;
        this.context = context;
        return;
      }
      case 'context-compacted':
        if (event.session) this.session = event.session;
        this.push(compactedNotice(event, this.items.length));
        return;
      case 'instructions-loaded':
        this.push(instructionsNotice(event, this.items.length));
        return;
      case 'run-finished': {
        this.endStreaming(event.runId);
        if (this.activeRunId === event.runId) this.activeRunId = null;
        this.remove(`${RETRY_NOTICE}${event.runId}`);
        const notice = finishNotice(event, this.find(`error-${event.runId}`) !== undefined);
        if (notice) this.push({ ...notice, task: this.taskOf(event.runId) });
        return;
      }
      case 'error': {
        this.remove(`${RETRY_NOTICE}${event.runId}`);
        this.push({ ...errorNotice(event), task: this.taskOf(event.runId) });
        return;
      }
      case 'files-reverted': {
        const { scope } = event;
        let what = 'files of this session';
        if (scope.kind === 'call') {
          this.updateTool(scope.callId, () => ({ reverted: true }));
          const at = this.toolPosition(scope.callId);
          const tool = at === undefined ? undefined : this.items[at];
          if (tool?.kind === 'tool') what = describeRevert(tool);
        } else if (scope.kind === 'run') {
          const at = this.position(`task-${event.runId}`);
          const task = at === undefined ? undefined : this.items[at];
          if (task?.kind === 'task') {
            this.items[at as number] = { ...task, reverted: true };
            what = `the run “${task.text.split('\n')[0] ?? ''}”`;
          } else what = 'a run';
        }
        this.push({
          kind: 'reverted',
          id: `reverted-${event.runId}-${event.at}-${this.items.length}`,
          runId: event.runId,
          scope,
          files: event.files,
          what,
        });
        return;
      }
    }
  }

  private taskOf(runId: string): string | undefined {
    const task = this.find(`task-${runId}`);
    return task?.kind === 'task' ? task.text : undefined;
  }

  private pushAssistant(runId: string, text: string, streaming: boolean): void {
    this.push({
      kind: 'assistant',
      id: `assistant-${runId}-${this.items.length}`,
      runId,
      text,
      streaming,
    });
  }

  private push(item: TraceItem): void {
    // A retry notice and an error notice are replaced, never stacked (one notice per failure).
    const existing = item.kind === 'notice' ? this.position(item.id) : undefined;
    if (existing !== undefined) {
      this.items[existing] = item;
      return;
    }
    this.index?.set(item.id, this.items.length);
    if (item.kind === 'tool') this.calls?.set(item.callId, this.items.length);
    this.items.push(item);
  }

  /** The call id as the item id, or with a suffix when a call of the same id came before. */
  private freeId(callId: string): string {
    if (this.position(callId) === undefined) return callId;
    for (let n = 2; ; n++)
      if (this.position(`${callId}~${n}`) === undefined) return `${callId}~${n}`;
  }

  private toolPosition(callId: string): number | undefined {
    if (this.calls) return this.calls.get(callId);
    const at = this.items.findLastIndex((item) => item.kind === 'tool' && item.callId === callId);
    return at < 0 ? undefined : at;
  }

  private remove(id: string): void {
    const at = this.position(id);
    if (at === undefined) return;
    this.items.splice(at, 1);
    if (this.index) {
      this.index.delete(id);
      for (let i = at; i < this.items.length; i++)
        this.index.set((this.items[i] as TraceItem).id, i);
    }
  }

  private position(id: string): number | undefined {
    if (this.index) return this.index.get(id);
    const at = this.items.findLastIndex((item) => item.id === id);
    return at < 0 ? undefined : at;
  }

  private find(id: string): TraceItem | undefined {
    const at = this.position(id);
    return at === undefined ? undefined : this.items[at];
  }

  private endStreaming(runId: string): void {
    const last = this.items.at(-1);
    if (last?.kind === 'assistant' && last.runId === runId && last.streaming) {
      this.items[this.items.length - 1] = { ...last, streaming: false };
    }
  }

  /** False when the trace has no such call. */
  private updateTool(
    callId: string,
    change: (tool: ToolItem) => Partial<Omit<ToolItem, 'kind' | 'id'>>,
  ): boolean {
    const at = this.toolPosition(callId);
    const tool = at === undefined ? undefined : this.items[at];
    if (tool?.kind !== 'tool') return false;
    this.items[at as number] = { ...tool, ...change(tool) };
    return true;
  }
}

function keepTail(output: string, chunk: string): string {
  const joined = output + chunk;
  return joined.length > MAX_TOOL_OUTPUT ? joined.slice(-MAX_TOOL_OUTPUT) : joined;
}

function resultStatus(
  tool: ToolItem,
  event: Extract<RunEvent, { type: 'tool-result' }>,
): ToolStatus {
  // The person's "no" stays "Not run"; a stop is a stop, never a failure.
  if (tool.status === 'refused' && tool.approval?.by === 'person') return 'refused';
  if (event.stopped) return 'stopped';
  if (tool.status === 'refused') return 'refused';
  return event.ok ? 'done' : 'failed';
}
