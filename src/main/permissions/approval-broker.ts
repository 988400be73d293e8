// Approval requests waiting for the person. An answer is accepted once, only for a pending
// request, only with the arguments hash the card showed; anything else is refused and logged.
// Nothing here ever resolves to "yes" on its own: stop, a closed window or no terminal deny.
import { randomUUID } from 'node:crypto';
import type { ApprovalRequestFields, ApprovalResolvedBy, RunEvent } from '../../shared/events';
import type { ApprovalAnswer, EditedArgs } from '../../shared/tool-types';
import type { Clock } from './grant-book';

export type ApprovalRequestInput = ApprovalRequestFields;

export interface PendingApproval extends ApprovalRequestInput {
  readonly requestId: string;
  readonly at: number;
}

/** Who answered (mirrors the `approval-resolved` event). */
export type AnsweredBy = ApprovalResolvedBy;

export interface ApprovalOutcome {
  readonly answer: ApprovalAnswer;
  readonly by: AnsweredBy;
  readonly at: number;
  /** Allowed once, as the person edited it (the gate judges the edited call before it runs). */
  readonly edited?: EditedArgs;
}

export type AnswerRefusalReason =
  'unknown-request' | 'already-answered' | 'args-mismatch' | 'invalid-answer';

export interface RefusedAnswer {
  readonly requestId: string;
  readonly argsHash: string;
  readonly reason: AnswerRefusalReason;
  readonly at: number;
}

export type AnswerResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: AnswerRefusalReason; readonly message: string };

/**
 * Why an answer cannot be taken for this request (a widening the card never offered, an edit of
 * a call that cannot be edited), or null.
 */
export type AnswerCheck = (answer: ApprovalAnswer, edited?: EditedArgs) => string | null;

interface Waiting {
  readonly request: PendingApproval;
  readonly check: AnswerCheck;
  readonly emit: (event: RunEvent) => void;
  readonly resolve: (outcome: ApprovalOutcome) => void;
}

export interface ApprovalBrokerOptions {
  readonly clock?: Clock;
  /** Called for every refused answer (the host logs it; the broker also keeps a list). */
  readonly onRefused?: (refused: RefusedAnswer) => void;
}

const REFUSAL_MESSAGES: Readonly<Record<AnswerRefusalReason, string>> = {
  'unknown-request': 'no such approval request',
  'already-answered': 'this approval request was already answered',
  'args-mismatch': 'the answer is for different arguments than the request shows',
  'invalid-answer': 'the answer does not fit what the request offered',
};

export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  private readonly answered = new Set<string>();
  private readonly refused: RefusedAnswer[] = [];
  private readonly clock: Clock;

  constructor(private readonly options: ApprovalBrokerOptions = {}) {
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Opens a request, emits `approval-requested`, and resolves when someone answers. `check`
   * refuses answers that do not fit this request; a refused answer leaves it pending.
   */
  open(
    input: ApprovalRequestInput,
    emit: (event: RunEvent) => void,
    check: AnswerCheck = () => null,
  ): { readonly request: PendingApproval; readonly outcome: Promise<ApprovalOutcome> } {
    const request: PendingApproval = { ...input, requestId: randomUUID(), at: this.clock() };
    const outcome = new Promise<ApprovalOutcome>((resolve) => {
      this.waiting.set(request.requestId, { request, check, emit, resolve });
    });
    emit({ type: 'approval-requested', ...request });
    return { request, outcome };
  }

  /** The person's answer (from our window or the CLI's terminal). */
  answer(
    requestId: string,
    argsHash: string,
    answer: ApprovalAnswer,
    by: AnsweredBy = 'person',
  ): AnswerResult {
    const waiting = this.waiting.get(requestId);
    if (!waiting) {
      return this.refuse(
        requestId,
        argsHash,
        this.answered.has(requestId) ? 'already-answered' : 'unknown-request',
      );
    }
    if (waiting.request.argsHash !== argsHash) {
      return this.refuse(requestId, argsHash, 'args-mismatch');
    }
    const problem = waiting.check(answer);
    if (problem !== null) return this.refuse(requestId, argsHash, 'invalid-answer', problem);
    this.settle(waiting, answer, by);
    return { ok: true };
  }

  /**
   * The person allowed the call once, as they edited it on the card. Taken only for a pending
   * request, once, with the hash of what the card showed, and only for an edit its check allows.
   */
  answerEdited(requestId: string, argsHash: string, edited: EditedArgs): AnswerResult {
    const waiting = this.waiting.get(requestId);
    if (!waiting) {
      return this.refuse(
        requestId,
        argsHash,
        this.answered.has(requestId) ? 'already-answered' : 'unknown-request',
      );
    }
    if (waiting.request.argsHash !== argsHash) {
      return this.refuse(requestId, argsHash, 'args-mismatch');
    }
    const answer: ApprovalAnswer = { kind: 'allow-once' };
    const problem = waiting.check(answer, edited);
    if (problem !== null) return this.refuse(requestId, argsHash, 'invalid-answer', problem);
    this.settle(waiting, answer, 'person', edited);
    return { ok: true };
  }

  /** Denies one pending request on the app's behalf (stop, closed window). */
  cancel(requestId: string, by: AnsweredBy): boolean {
    const waiting = this.waiting.get(requestId);
    if (!waiting) return false;
    this.settle(waiting, { kind: 'deny' }, by);
    return true;
  }

  /** Stop: every pending request is denied, in order. Returns how many were pending. */
  denyAll(by: AnsweredBy = 'stop', runId?: string): number {
    const targets = [...this.waiting.values()].filter(
      (w) => runId === undefined || w.request.runId === runId,
    );
    for (const waiting of targets) this.settle(waiting, { kind: 'deny' }, by);
    return targets.length;
  }

  /** Pending requests, oldest first. */
  pending(): readonly PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  refusedAnswers(): readonly RefusedAnswer[] {
    return this.refused;
  }

  private settle(
    waiting: Waiting,
    answer: ApprovalAnswer,
    by: AnsweredBy,
    edited?: EditedArgs,
  ): void {
    const { request } = waiting;
    this.waiting.delete(request.requestId);
    this.answered.add(request.requestId);
    const at = this.clock();
    waiting.emit({
      type: 'approval-resolved',
      runId: request.runId,
      requestId: request.requestId,
      callId: request.callId,
      answer,
      by,
      at,
      ...(edited ? { edited } : {}),
    });
    waiting.resolve({ answer, by, at, ...(edited ? { edited } : {}) });
  }

  private refuse(
    requestId: string,
    argsHash: string,
    reason: AnswerRefusalReason,
    detail?: string,
  ): AnswerResult {
    const refused: RefusedAnswer = { requestId, argsHash, reason, at: this.clock() };
    this.refused.push(refused);
    this.options.onRefused?.(refused);
    const message = REFUSAL_MESSAGES[reason];
    return { ok: false, reason, message: detail ? `${message}: ${detail}` : message };
  }
}
