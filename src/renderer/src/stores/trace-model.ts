// What the session view shows: a list of trace items built from the RunEvent stream. One tool
// call is one item: its approval (if it asked), its live output and its result live together.
import type { ChangeReport } from '../../../shared/change-report';
import type {
  ApprovalRequestFields,
  ApprovalResolvedBy,
  RunEvent,
  RunFault,
} from '../../../shared/events';
import type {
  ApprovalAnswer,
  SecretMark,
  ToolEffect,
  ToolImage,
  Usage,
  UsageTotals,
} from '../../../shared/tool-types';

export type { ApprovalResolvedBy };

export type ToolStatus = 'running' | 'waiting' | 'done' | 'failed' | 'refused' | 'stopped';

/** The card a call asked with (the newest one when it was asked again). */
export type ApprovalState = Omit<ApprovalRequestFields, 'runId' | 'callId'> & {
  readonly requestId: string;
  readonly at: number;
  readonly answer: ApprovalAnswer | null;
  readonly by?: ApprovalResolvedBy;
  readonly answeredAt?: number;
};

export type RevertScope = Extract<RunEvent, { type: 'files-reverted' }>['scope'];
export type RevertedFiles = Extract<RunEvent, { type: 'files-reverted' }>['files'];

export type ToolItem = {
  readonly kind: 'tool';
  /** Unique in the trace: the call id, with a suffix if an earlier call had the same id. */
  readonly id: string;
  /** The call's id, as main knows it (for stop, undo and terminal input). */
  readonly callId: string;
  readonly runId: string;
  readonly name: string;
  readonly args: unknown;
  readonly effect: ToolEffect | 'unknown';
  readonly status: ToolStatus;
  readonly startedAt: number;
  /** When it was allowed to run (for its elapsed time while it runs). */
  readonly runningSince?: number;
  /** Live output as it streamed (raw, colours kept), tail only past a cap. */
  readonly output: string;
  /** Characters ever streamed, so a terminal knows what it has not written yet. */
  readonly outputTotal: number;
  /** What the model was given, once finished (secrets masked). */
  readonly result?: string;
  /** Secrets masked in `result`, and the result as the tool gave it, for the person only. */
  readonly secrets?: readonly SecretMark[];
  readonly unmasked?: string;
  /** How long it ran, the person's decision excluded. */
  readonly durationMs?: number;
  readonly provenance?: string;
  /** What a command changed on disk, as data. */
  readonly changes?: ChangeReport;
  /** Images the tool returned (an MCP tool's), drawn in its card. */
  readonly images?: readonly ToolImage[];
  readonly approval?: ApprovalState;
  /** The person undid this call's changes (seen from a `files-reverted` event). */
  readonly reverted?: boolean;
  /** The person edited the call before allowing it; `args` are their version. */
  readonly edited?: boolean;
};

export type TraceItem =
  | {
      readonly kind: 'task';
      readonly id: string;
      readonly runId: string;
      readonly text: string;
      /** The person undid the whole run. */
      readonly reverted?: boolean;
    }
  | {
      readonly kind: 'assistant';
      readonly id: string;
      readonly runId: string;
      readonly text: string;
      readonly streaming: boolean;
    }
  | ToolItem
  | {
      readonly kind: 'notice';
      readonly id: string;
      readonly runId: string;
      readonly tone: 'info' | 'warning' | 'error';
      readonly text: string;
      /** What failed, so the notice offers the action that fixes it. */
      readonly fault?: RunFault;
      /** The run's task, for Retry. */
      readonly task?: string;
    }
  | {
      readonly kind: 'reverted';
      readonly id: string;
      readonly runId: string;
      readonly scope: RevertScope;
      readonly files: RevertedFiles;
      /** What was undone, in words ("edit_file notes.txt"), from the trace at the time. */
      readonly what: string;
    };

export interface TraceState {
  readonly items: readonly TraceItem[];
  readonly activeRunId: string | null;
  /** Requests seen by this window, summed. */
  readonly usage: Usage;
  /** The session's totals as main last reported them (earlier runs and compactions included). */
  readonly session: UsageTotals | null;
  /** The latest request's usage as reported, and its cost when the model has a price. */
  readonly lastRequest: LastRequest | null;
  /** What the latest request took of the model's window, as Tandem counted it. */
  readonly context: ContextUse | null;
  /** When the last event arrived (the window's clock): the model thinks since then. */
  readonly lastEventAt: number;
}

export interface LastRequest {
  readonly usage: Usage;
  readonly costUsd?: number;
}

export type ContextUse = Omit<Extract<RunEvent, { type: 'context-use' }>, 'type' | 'runId'>;

export const EMPTY_TRACE: TraceState = {
  items: [],
  activeRunId: null,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  session: null,
  lastRequest: null,
  context: null,
  lastEventAt: 0,
};
