// Who shows an approval card to the person. The window's asker does nothing itself: the card is
// drawn from the `approval-requested` event and the answer arrives over IPC as broker.answer(...).
// The CLI's asker prompts in the terminal and calls `respond`.
import type { ApprovalAnswer } from '../../shared/tool-types';
import type { AnsweredBy, AnswerResult, PendingApproval } from './approval-broker';
import type { PermissionRule } from './permission-rule';

export interface AskContext {
  /** What "allow for this session" / "always" would store, as the person reads it. */
  readonly grantable: readonly string[];
  /** The same, as rules (for a rule preview before "always"). */
  readonly rules: readonly PermissionRule[];
  readonly signal: AbortSignal;
}

export interface Asker {
  ask(
    request: PendingApproval,
    /** Refused (not ok) when the answer does not fit the request; it then stays pending. */
    respond: (answer: ApprovalAnswer, by?: AnsweredBy) => AnswerResult,
    context: AskContext,
  ): void;
}
