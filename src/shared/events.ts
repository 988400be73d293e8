// The one event stream (DESIGN.md §3). The runner emits these; the window, the CLI and the
// transcript consume them. Every variant carries `type`; switches over it are exhaustive.
import type { ChangeReport } from './change-report';
import type {
  ApprovalAnswer,
  Decision,
  EditedArgs,
  SecretMark,
  ToolEffect,
  ToolImage,
  ToolPreview,
  Usage,
  UsageTotals,
} from './tool-types';

export type RunFinishReason = 'done' | 'stopped' | 'max-steps' | 'error';

/**
 * What kind of failure an `error` event reports, so the window can offer the action that fixes it
 * (Open Settings for a wrong URL or key, Retry for a busy or flaky server). Absent in old
 * transcripts.
 */
export type RunFault =
  | 'unreachable'
  | 'unauthorized'
  | 'not-found'
  | 'rate-limited'
  | 'server'
  | 'incomplete'
  | 'protocol'
  | 'internal';
/** The person's setting, the provider's model list, Tandem's table, or a cautious default. */
export type WindowSource = 'person' | 'provider' | 'table' | 'default';

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
      /** When it was decided (absent in old transcripts). */
      readonly at?: number;
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
      /** What the person may edit on the card before allowing it; absent: nothing. */
      readonly editable?: 'command' | 'content';
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
      /** The person changed the call before allowing it: what they allowed instead. */
      readonly edited?: EditedArgs;
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
      /** How long it ran: from when it was allowed to its end (the person's decision excluded). */
      readonly durationMs: number;
      /** It was stopped (the run or this one command) before it finished on its own. */
      readonly stopped?: boolean;
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
  | {
      readonly type: 'usage';
      readonly runId: string;
      /** This request, as the provider reported it. */
      readonly usage: Usage;
      /** This request's cost in US dollars, when the model has a price. */
      readonly costUsd?: number;
      /** The session so far, this request included (absent in older transcripts). */
      readonly session?: UsageTotals;
    }
  | {
      /**
       * The older part of the conversation was summarised by the model to save context: from now
       * on the summary is sent in place of the history before `keptFrom` (the transcript keeps it).
       */
      readonly type: 'context-compacted';
      readonly runId: string;
      /** Asked for by the person, or done because the history no longer fit the window. */
      readonly by: 'auto' | 'person';
      readonly summary: string;
      /** Index in the session's messages of the first one sent as it is after the summary. */
      readonly keptFrom: number;
      /** Digest of that message, so a reopened session can check (or find) it. */
      readonly keptFromDigest: string;
      /** Stored messages the summary stands for, all compactions together. */
      readonly replacedMessages: number;
      /** The prompt in tokens before and after, as counted for the window. */
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      /** The summary request's own tokens, and the session's with it. */
      readonly usage?: Usage;
      readonly session?: UsageTotals;
      readonly at: number;
    }
  | {
      /**
       * What the request about to be sent takes of the model's window, as Tandem counts it (its
       * tokenizer or byte estimate, corrected by what the provider reported so far).
       */
      readonly type: 'context-use';
      readonly runId: string;
      /** The whole prompt: system prompt, tool list and the messages as sent. */
      readonly tokens: number;
      /** The model's window, prompt and answer together. */
      readonly windowTokens: number;
      /** Kept free in the window for the answer. */
      readonly answerTokens: number;
      /** Where the window's size came from. */
      readonly windowSource: WindowSource;
      /** The model's own window, when Tandem works within a smaller limit (`windowTokens`). */
      readonly modelWindowTokens?: number;
      /** How the tokens were counted: "o200k_base", or "bytes / 2.5". */
      readonly counter: string;
    }
  | {
      /** The project's instructions for agents were read and go with every request. */
      readonly type: 'instructions-loaded';
      readonly runId: string;
      /** Relative to the project: AGENTS.md, CLAUDE.md or .github/copilot-instructions.md. */
      readonly file: string;
      /** Characters sent (after any cut). */
      readonly chars: number;
      /** What was cut or why nothing was sent ("cut at 20,000 characters"). */
      readonly note?: string;
    }
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
      readonly fault?: RunFault;
    }
  /**
   * The person undid files of this session (one call, a whole run, or files from the changes
   * panel). Recorded in the transcript; the next request to the model carries a note of it.
   */
  | {
      readonly type: 'files-reverted';
      /** The run whose changes were undone (for files from the changes panel: a fresh id). */
      readonly runId: string;
      /** What was undone: one call, a whole run, or files picked in the changes panel. */
      readonly scope:
        | { readonly kind: 'call'; readonly callId: string }
        | { readonly kind: 'run' }
        | { readonly kind: 'files' };
      /** Paths relative to the project folder. */
      readonly files: readonly { readonly path: string; readonly action: 'restored' | 'deleted' }[];
      readonly at: number;
    };

export type RunEventType = RunEvent['type'];

export type ApprovalRequestedEvent = Extract<RunEvent, { type: 'approval-requested' }>;

/** What an approval request shows, as the broker opens it (id and time are added then). */
export type ApprovalRequestFields = Omit<ApprovalRequestedEvent, 'type' | 'requestId' | 'at'>;

/** Who answered an approval request. */
export type ApprovalResolvedBy = Extract<RunEvent, { type: 'approval-resolved' }>['by'];
