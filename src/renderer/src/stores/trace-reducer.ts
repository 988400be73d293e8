// Folds one RunEvent into the trace. Pure, so the session view's logic is tested without a DOM.
import type {
  ApprovalRequestedEvent,
  ApprovalRequestFields,
  RunEvent,
} from '../../../shared/events';
import { isAllow } from '../../../shared/tool-types';
import type { TraceItem, TraceState, ToolStatus } from './trace-model';

/** Live output kept per tool card; the head is dropped first (the end is what matters). */
export const MAX_TOOL_OUTPUT = 200_000;

export function applyRunEvent(state: TraceState, event: RunEvent): TraceState {
  switch (event.type) {
    case 'run-started':
      return {
        ...state,
        activeRunId: event.runId,
        items: [
          ...state.items,
          { kind: 'task', id: `task-${event.runId}`, runId: event.runId, text: event.task },
        ],
      };
    case 'assistant-delta': {
      const last = state.items.at(-1);
      if (last?.kind === 'assistant' && last.runId === event.runId && last.streaming) {
        return replaceLast(state, { ...last, text: last.text + event.text });
      }
      return push(state, {
        kind: 'assistant',
        id: `assistant-${event.runId}-${state.items.length}`,
        runId: event.runId,
        text: event.text,
        streaming: true,
      });
    }
    case 'assistant-message': {
      const last = state.items.at(-1);
      if (last?.kind === 'assistant' && last.runId === event.runId && last.streaming) {
        return replaceLast(state, { ...last, text: event.text, streaming: false });
      }
      if (event.text.trim() === '') return state;
      return push(state, {
        kind: 'assistant',
        id: `assistant-${event.runId}-${state.items.length}`,
        runId: event.runId,
        text: event.text,
        streaming: false,
      });
    }
    case 'tool-call-started':
      return push(endStreaming(state, event.runId), {
        kind: 'tool',
        id: event.callId,
        runId: event.runId,
        name: event.name,
        args: event.args,
        effect: event.effect,
        status: 'running',
        output: '',
        outputTotal: 0,
      });
    case 'permission-decided': {
      const status: ToolStatus | null =
        event.decision === 'ask' ? 'waiting' : event.decision === 'refuse' ? 'refused' : null;
      return status ? updateTool(state, event.callId, () => ({ status })) : state;
    }
    case 'approval-requested':
      return push(
        updateTool(state, event.callId, () => ({ status: 'waiting' })),
        { ...approvalFields(event), kind: 'approval', id: event.requestId, answer: null },
      );
    case 'approval-resolved': {
      const resolved = {
        ...state,
        items: state.items.map((item) =>
          item.kind === 'approval' && item.id === event.requestId
            ? { ...item, answer: event.answer, by: event.by }
            : item,
        ),
      };
      const status: ToolStatus = isAllow(event.answer) ? 'running' : 'refused';
      return updateTool(resolved, event.callId, () => ({ status }));
    }
    case 'tool-output':
      return updateTool(state, event.callId, (tool) => ({
        output: (tool.output + event.chunk).slice(-MAX_TOOL_OUTPUT),
        outputTotal: tool.outputTotal + event.chunk.length,
      }));
    case 'tool-result':
      return updateTool(state, event.callId, (tool) => ({
        status: tool.status === 'refused' ? 'refused' : event.ok ? 'done' : 'failed',
        result: event.output,
        durationMs: event.durationMs,
        ...(event.secrets !== undefined ? { secrets: event.secrets } : {}),
        ...(event.unmasked !== undefined ? { unmasked: event.unmasked } : {}),
        ...(event.provenance !== undefined ? { provenance: event.provenance } : {}),
        ...(event.changes !== undefined ? { changes: event.changes } : {}),
        ...(event.images !== undefined ? { images: event.images } : {}),
      }));
    case 'usage':
      return {
        ...state,
        usage: {
          promptTokens: state.usage.promptTokens + event.usage.promptTokens,
          completionTokens: state.usage.completionTokens + event.usage.completionTokens,
          totalTokens: state.usage.totalTokens + event.usage.totalTokens,
        },
        session: event.session ?? state.session,
        lastRequest: {
          usage: event.usage,
          ...(event.costUsd !== undefined ? { costUsd: event.costUsd } : {}),
        },
      };
    case 'context-use': {
      const { type: _type, runId: _runId, ...context } = event;
      return { ...state, context };
    }
    case 'context-compacted': {
      const n = (value: number): string => value.toLocaleString('en-US');
      return push(
        { ...state, session: event.session ?? state.session },
        {
          kind: 'notice',
          id: `compacted-${event.runId}-${state.items.length}`,
          runId: event.runId,
          tone: 'info',
          text:
            `Context compacted${event.by === 'person' ? ' as you asked' : ' to fit the model’s window'}: ` +
            `the first ${n(event.keptFrom)} messages are sent as this summary ` +
            `(${n(event.tokensBefore)} → ${n(event.tokensAfter)} tokens); the transcript keeps them all.\n\n` +
            event.summary,
        },
      );
    }
    case 'instructions-loaded':
      return push(state, {
        kind: 'notice',
        id: `instructions-${event.runId}-${state.items.length}`,
        runId: event.runId,
        tone: event.chars === 0 ? 'warning' : 'info',
        text:
          `Project instructions loaded: ${event.file} (${event.chars.toLocaleString('en-US')} characters)` +
          (event.note ? `; ${event.note}` : ''),
      });
    case 'run-finished': {
      const ended = endStreaming(state, event.runId);
      const next = {
        ...ended,
        activeRunId: state.activeRunId === event.runId ? null : state.activeRunId,
      };
      if (event.reason === 'done') return next;
      const text = {
        stopped: 'Run stopped.',
        'max-steps': 'The run reached its step limit.',
        error: 'The run ended with an error.',
      }[event.reason];
      return push(next, {
        kind: 'notice',
        id: `finished-${event.runId}`,
        runId: event.runId,
        tone: event.reason === 'error' ? 'error' : 'info',
        text: event.message ? `${text} ${event.message}` : text,
      });
    }
    case 'error':
      return push(state, {
        kind: 'notice',
        id: `error-${event.runId}-${state.items.length}`,
        runId: event.runId,
        tone: event.retrying ? 'warning' : 'error',
        text: event.retrying ? `${event.message} Retrying…` : event.message,
      });
  }
}

function push(state: TraceState, item: TraceItem): TraceState {
  return { ...state, items: [...state.items, item] };
}

function replaceLast(state: TraceState, item: TraceItem): TraceState {
  return { ...state, items: [...state.items.slice(0, -1), item] };
}

function endStreaming(state: TraceState, runId: string): TraceState {
  const last = state.items.at(-1);
  return last?.kind === 'assistant' && last.runId === runId && last.streaming
    ? replaceLast(state, { ...last, streaming: false })
    : state;
}

type ToolItem = Extract<TraceItem, { kind: 'tool' }>;

function updateTool(
  state: TraceState,
  callId: string,
  change: (tool: ToolItem) => Partial<Omit<ToolItem, 'kind' | 'id'>>,
): TraceState {
  // Output chunks arrive many times a second for the newest card: search from the end and replace
  // one slot instead of mapping (and re-testing) every item of a long trace per chunk.
  const index = state.items.findLastIndex((item) => item.kind === 'tool' && item.id === callId);
  const tool = state.items[index];
  if (tool?.kind !== 'tool') return state;
  const items = state.items.slice();
  items[index] = { ...tool, ...change(tool) };
  return { ...state, items };
}

function approvalFields(event: ApprovalRequestedEvent): ApprovalRequestFields {
  const { type: _type, requestId: _id, at: _at, ...fields } = event;
  return fields;
}
