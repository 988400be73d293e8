// The one event stream (DESIGN.md §3). The runner emits these; the window, the CLI and the
// transcript consume them. Every variant carries `type`; switches over it are exhaustive.
import type { ChangeReport } from './change-report';
import type {
  ApprovalAnswer,
  Decision,
  SecretMark,
  ToolEffect,
  ToolImage,
  ToolPreview,
  Usage,
} from './tool-types';

export type RunFinishReason = 'done' | 'stopped' | 'max-steps' | 'error';

export type RunEvent =
  | {
      readonly type: 'run-started';
      readonly runId: string;
      readonly sessionId: string;
      readonly task: string;
      readonly at: number;
    }
  | { readonly type: 'assistant-delta'; readonly runId: string; readonly text: string }
  /** The whole assistant text of one model turn, once it is complete. */
  | { readonly type: 'assistant-message'; readonly runId: string; readonly text: string }
  | {
      readonly type: 'tool-call-started';
      readonly runId: string;
      readonly callId: string;
      readonly name: string;
      /** Parsed arguments, or the raw string when they were not JSON. */
      readonly args: unknown;
      readonly effect: ToolEffect | 'unknown';
      readonly at: number;
    }
  | {
      readonly type: 'permission-decided';
      readonly runId: string;
      readonly callId: string;
      readonly decision: Decision;
      readonly reasons: readonly string[];
    }
  | {
      readonly type: 'approval-requested';
      readonly runId: string;
      readonly requestId: string;
      readonly callId: string;
      readonly name: string;
      readonly args: unknown;
      readonly argsHash: string;
      readonly effect: ToolEffect;
      readonly preview: ToolPreview;
      readonly reasons: readonly string[];
      /**
       * What "for this session", "for a while" and "always" would allow, as the person reads it
       * ("`rm build` exactly"); empty when they allow this call only. Absent in old transcripts.
       */
      readonly storable?: readonly string[];
      readonly at: number;
    }
  | {
      readonly type: 'approval-resolved';
      readonly runId: string;
      readonly requestId: string;
      readonly callId: string;
      readonly answer: ApprovalAnswer;
      /** Who answered: the person, or the app on their behalf (stop, closed window, no terminal). */
      readonly by: 'person' | 'stop' | 'closed' | 'no-tty' | 'rule';
      readonly at: number;
    }
  | {
      readonly type: 'tool-output';
      readonly runId: string;
      readonly callId: string;
      /** Raw output as it arrives (a pty's bytes keep their colours). */
      readonly chunk: string;
    }
  | {
      readonly type: 'tool-result';
      readonly runId: string;
      readonly callId: string;
      readonly ok: boolean;
      /** What the model was given: secrets in the tool's output masked. */
      readonly output: string;
      /** The secrets masked in `output`, in order; absent when there were none. */
      readonly secrets?: readonly SecretMark[];
      /**
       * The output as the tool gave it, for the person to reveal in the window; present only when
       * something was masked. Never sent to the model.
       */
      readonly unmasked?: string;
      readonly durationMs: number;
      /** Why it ran ("you allowed it at 14:02", "read-only"); absent when it did not run. */
      readonly provenance?: string;
      /** What a command changed on disk, as data: the window draws the card from this. */
      readonly changes?: ChangeReport;
      /**
       * Set when this call brought outside content into the conversation ("after reading
       * https://…", "after running `curl …` with network on"): the session is tainted from here
       * on, also when it is reopened from its transcript.
       */
      readonly taintedBy?: string;
      /** Images the tool returned, shown in the trace; the model was given a description. */
      readonly images?: readonly ToolImage[];
    }
  | { readonly type: 'usage'; readonly runId: string; readonly usage: Usage }
  | {
      readonly type: 'run-finished';
      readonly runId: string;
      readonly reason: RunFinishReason;
      readonly message?: string;
    }
  | {
      readonly type: 'error';
      readonly runId: string;
      readonly message: string;
      /** True when the runner will retry (a 429 or 5xx); false when the run gives up. */
      readonly retrying: boolean;
    };

export type RunEventType = RunEvent['type'];

export type ApprovalRequestedEvent = Extract<RunEvent, { type: 'approval-requested' }>;

/** What an approval request shows, as the broker opens it (id and time are added then). */
export type ApprovalRequestFields = Omit<ApprovalRequestedEvent, 'type' | 'requestId' | 'at'>;

/** Who answered an approval request. */
export type ApprovalResolvedBy = Extract<RunEvent, { type: 'approval-resolved' }>['by'];
