// What the session view shows: a list of trace items built from the RunEvent stream.
import type { ChangeReport } from '../../../shared/change-report';
import type { ApprovalRequestFields, ApprovalResolvedBy, RunEvent } from '../../../shared/events';
import type {
  ApprovalAnswer,
  SecretMark,
  ToolEffect,
  ToolImage,
  Usage,
  UsageTotals,
} from '../../../shared/tool-types';

export type { ApprovalResolvedBy };

export type ToolStatus = 'running' | 'waiting' | 'done' | 'failed' | 'refused';

export type TraceItem =
  | { readonly kind: 'task'; readonly id: string; readonly runId: string; readonly text: string }
  | {
      readonly kind: 'assistant';
      readonly id: string;
      readonly runId: string;
      readonly text: string;
      readonly streaming: boolean;
    }
  | {
      readonly kind: 'tool';
      readonly id: string;
      readonly runId: string;
      readonly name: string;
      readonly args: unknown;
      readonly effect: ToolEffect | 'unknown';
      readonly status: ToolStatus;
      /** Live output as it streamed (raw, colours kept), tail only past a cap. */
      readonly output: string;
      /** Characters ever streamed, so a terminal knows what it has not written yet. */
      readonly outputTotal: number;
      /** What the model was given, once finished (secrets masked). */
      readonly result?: string;
      /** Secrets masked in `result`, and the result as the tool gave it, for the person only. */
      readonly secrets?: readonly SecretMark[];
      readonly unmasked?: string;
      readonly durationMs?: number;
      readonly provenance?: string;
      /** What a command changed on disk, as data. */
      readonly changes?: ChangeReport;
      /** Images the tool returned (an MCP tool's), drawn in its card. */
      readonly images?: readonly ToolImage[];
    }
  | (ApprovalRequestFields & {
      readonly kind: 'approval';
      /** The request id. */
      readonly id: string;
      readonly answer: ApprovalAnswer | null;
      readonly by?: ApprovalResolvedBy;
    })
  | {
      readonly kind: 'notice';
      readonly id: string;
      readonly runId: string;
      readonly tone: 'info' | 'warning' | 'error';
      readonly text: string;
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
};
