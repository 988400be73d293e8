// The PermissionGate the runner, the window and the CLI all use: policy → (approval) → verdict.
// Every decision is emitted as events, so the transcript records who allowed what and why.
import type { RunEvent } from '../../shared/events';
import type {
  ApprovalAnswer,
  PermissionMode,
  SandboxState,
  ToolPreview,
} from '../../shared/tool-types';
import type { ToolTarget } from '../tools/tool';
import { widenProblem } from './always-answer';
import {
  ApprovalBroker,
  type AnsweredBy,
  type AnswerResult,
  type ApprovalOutcome,
} from './approval-broker';
import { approvalHash, snapshotFile } from './approval-hash';
import type { Asker } from './asker';
import type { GateRequest, GateVerdict, PermissionGate } from './gate';
import type { Clock, GrantBook } from './grant-book';
import { describeRule } from './permission-rule';
import { decidePolicy, type PolicyDecision } from './policy';
import type { PolicyDeps } from './policy-deps';
import type { PermissionsStore } from './project-permissions-store';
import { rememberAnswer } from './remember-answer';
import { editedCommandFiles, editProblem, newReasons, withEdit } from './call-edit';
import { namedFileContents } from './command-files';
import { allowedAt, editedAllowedAt } from './provenance';
import { realPolicyDeps } from './real-policy-deps';
import { safeJsonStringify } from '../../shared/safe-json';

export interface PermissionGateOptions {
  readonly store: PermissionsStore;
  readonly grants: GrantBook;
  readonly broker: ApprovalBroker;
  readonly asker: Asker;
  readonly sandbox: SandboxState | (() => Promise<SandboxState>);
  /** The classifier and path guard; the real ones unless a host has a reason to differ. */
  readonly deps?: PolicyDeps;
  readonly clock?: Clock;
  /** Overrides the project's stored mode (e.g. `tandem run --mode read-only`). */
  readonly mode?: PermissionMode;
  /** How often a call whose arguments or file keep changing is asked again before giving up. */
  readonly maxReasks?: number;
}

export function createPermissionGate(options: PermissionGateOptions): PermissionGate {
  const clock = options.clock ?? Date.now;
  const maxReasks = options.maxReasks ?? 3;
  const deps = options.deps ?? realPolicyDeps;

  const gate: PermissionGate = async (request, emit, signal) => {
    const { tool, args, ctx } = request;
    const target: ToolTarget = tool.target ? tool.target(args as never, ctx) : { kind: 'none' };
    let stored;
    try {
      stored = await options.store.load(ctx.folder);
    } catch (error) {
      // A broken settings file must not silently fall back to defaults: nothing runs until fixed.
      const reason = `the project's permission settings could not be read: ${(error as Error).message}`;
      emit({
        type: 'permission-decided',
        runId: request.runId,
        callId: request.callId,
        decision: 'refuse',
        reasons: [reason],
        at: clock(),
      });
      return { kind: 'refuse', message: `${tool.name} was not run: ${reason}` };
    }
    const sandbox =
      typeof options.sandbox === 'function' ? await options.sandbox() : options.sandbox;
    // The taint this judgement (and its card) saw; a call before this one may add it later.
    const taintJudged = request.taintedBy;
    const decided = await decidePolicy(
      {
        toolName: tool.name,
        effect: tool.effect,
        target,
        folder: ctx.folder,
        mode: options.mode ?? stored.mode,
        network: stored.network,
        rules: stored.rules.map((r) => r.rule),
        grants: options.grants.active(ctx.folder, ctx.sessionId),
        sandbox,
        ...(taintJudged !== undefined ? { taintedBy: taintJudged } : {}),
        ...(tool.mcp ? { mcp: tool.mcp } : {}),
        ...(ctx.services.dataFolders ? { dataFolders: ctx.services.dataFolders } : {}),
      },
      deps,
    );
    if (request.ready && decided.decision !== 'ask') {
      // Nothing to show the person now: decide when it is this call's turn, on the state then
      // (a call before it may have changed a file, the taint, or the rules).
      if (!(await untilReady(request.ready, signal))) return stoppedVerdict('stop');
      return gate(withoutReady(request), emit, signal);
    }
    emit({
      type: 'permission-decided',
      runId: request.runId,
      callId: request.callId,
      decision: decided.decision,
      reasons: decided.reasons,
      at: clock(),
    });

    if (request.editOf && decided.decision === 'ask') {
      // The person's own edit: it runs on the answer they gave, unless it needs more than the
      // card they answered showed; then they are asked again, with what is new first.
      const added = newReasons(decided.reasons, request.editOf.reasons);
      const { namedFiles } = request.editOf;
      if (namedFiles && decided.parts && target.kind === 'command') {
        // The edit was answered before the calls ahead of it ran: the scripts it names must
        // still be what they were then (as for the card itself: see the fingerprint).
        const command = { text: target.command, parts: decided.parts };
        const now = await namedFileContents(ctx.folder, command, Object.keys(namedFiles));
        const changed = Object.keys(namedFiles).filter((name) => now[name] !== namedFiles[name]);
        if (changed.length > 0) {
          added.unshift(`a file your edit runs changed after you answered: ${changed.join(', ')}`);
        }
      }
      if (added.length === 0) {
        return {
          kind: 'run',
          provenance: editedAllowedAt(request.editOf.answeredAt),
          permit: { basis: 'person', ...(decided.command ? { command: decided.command } : {}) },
          args,
        };
      }
      return askPerson(request, decided, target, sandbox, emit, signal, taintJudged, [
        `you edited this call, and your version needs more than the card you answered: ${added.join('; ')}`,
      ]);
    }
    switch (decided.decision) {
      case 'run':
        // The shell narrows what it runs by the basis; a decision without one does not run.
        if (!decided.basis) {
          return { kind: 'refuse', message: `${tool.name} was not run: the policy gave no basis.` };
        }
        for (const grant of decided.usedGrants) options.grants.markUsed(grant.id);
        for (const rule of decided.usedRules) options.grants.markRuleUsed(ctx.folder, rule);
        return {
          kind: 'run',
          provenance: decided.provenance ?? decided.reasons.join('; '),
          permit: {
            basis: decided.basis,
            ...(decided.command ? { command: decided.command } : {}),
          },
          ...(request.editOf ? { args } : {}),
        };
      case 'refuse':
        return { kind: 'refuse', message: decided.refusal ?? decided.reasons.join('; ') };
      case 'ask':
        return askPerson(request, decided, target, sandbox, emit, signal, taintJudged);
    }
  };
  return gate;

  async function askPerson(
    request: GateRequest,
    decided: PolicyDecision,
    target: ToolTarget,
    sandbox: SandboxState,
    emit: (event: RunEvent) => void,
    signal: AbortSignal,
    taintJudged: string | undefined,
    /** Reasons shown before the policy's (an edit that needs more). */
    lead: readonly string[] = [],
  ): Promise<GateVerdict> {
    const { tool, args, ctx } = request;
    const writePath =
      target.kind === 'path' && target.access === 'write' ? decided.resolvedPath : undefined;
    // The project files a command names, as the card was answered on them (command-files.ts).
    let named: Readonly<Record<string, string>> | undefined;
    const fingerprint = async (again = false): Promise<string> => {
      if (target.kind === 'command' && decided.parts) {
        const known = again && named ? Object.keys(named) : undefined;
        const command = { text: target.command, parts: decided.parts };
        named = await namedFileContents(ctx.folder, command, known);
      }
      return approvalHash({
        toolName: tool.name,
        args,
        folder: ctx.folder,
        ...(writePath !== undefined ? { fileContent: await snapshotFile(writePath) } : {}),
        ...(named !== undefined ? { namedFiles: named } : {}),
      });
    };

    let reasons = [...lead, ...decided.reasons];
    for (let round = 0; round <= maxReasks; round++) {
      if (signal.aborted) return stoppedVerdict('stop');
      // Fingerprint before the preview: a change in between can only cause one more question.
      const argsHash = await fingerprint();
      const preview = await previewFor(request, target, decided, sandbox);
      const { request: pending, outcome } = options.broker.open(
        {
          runId: request.runId,
          callId: request.callId,
          name: tool.name,
          args,
          argsHash,
          effect: tool.effect,
          preview,
          reasons,
          storable: decided.grantable.map(describeRule),
          ...(tool.editable && request.revalidate ? { editable: tool.editable } : {}),
        },
        emit,
        // A widening must be a prefix of the words this card offered, within the limits; an
        // edit must be of the part this tool lets the person edit, and fit the tool's schema.
        (answer, edited) => {
          if (edited) return editProblem(request, edited);
          return answer.kind === 'allow-always' && answer.widen
            ? widenProblem(answer.widen, decided.grantable)
            : null;
        },
      );
      const onAbort = (): void => {
        options.broker.cancel(pending.requestId, 'stop');
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const respond = (answer: ApprovalAnswer, by: AnsweredBy = 'person'): AnswerResult =>
        options.broker.answer(pending.requestId, argsHash, answer, by);
      options.asker.ask(pending, respond, {
        grantable: decided.grantable.map(describeRule),
        rules: decided.grantable,
        signal,
      });
      let answered: ApprovalOutcome;
      try {
        answered = await outcome;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
      if (answered.answer.kind === 'deny' || answered.answer.kind === 'deny-with-note') {
        return deniedVerdict(answered);
      }
      // An edited command shown early with its turn: the files it names, as they are now.
      const editNamed =
        answered.edited && request.ready
          ? await editedCommandFiles(request, answered.edited, deps)
          : undefined;
      if (request.ready) {
        // Shown early with the rest of its turn: it runs only after the calls before it, and
        // what they changed is checked below (the fingerprint). Outside content they brought in
        // is news the card did not show: then it is judged and asked afresh.
        if (!(await untilReady(request.ready, signal))) return stoppedVerdict('stop');
        if (request.taintedBy !== taintJudged) {
          return gate(withoutReady(request), emit, signal);
        }
      }
      // The card showed one thing; run only that. A change between card and now asks again.
      if ((await fingerprint(true)) !== argsHash) {
        reasons = [
          'the arguments, the working folder or the target file changed after the card was shown, so Tandem asks again',
          ...decided.reasons,
        ];
        continue;
      }
      if (answered.edited) {
        // What runs is the person's version, judged afresh as its own call (same call id).
        const checked = request.revalidate?.(withEdit(args, answered.edited));
        if (!checked?.ok) {
          return {
            kind: 'refuse',
            message: `${tool.name} was not run: the person's edit did not fit the tool (${checked?.message ?? 'calls cannot be edited here'}).`,
          };
        }
        return gate(
          {
            ...withoutReady(request),
            args: checked.args,
            editOf: {
              reasons: [...lead, ...decided.reasons],
              answeredAt: answered.at,
              ...(editNamed ? { namedFiles: editNamed } : {}),
            },
          },
          emit,
          signal,
        );
      }
      await rememberAnswer(
        { grants: options.grants, store: options.store, clock },
        answered.answer,
        decided.grantable,
        request,
      );
      return {
        kind: 'run',
        provenance: request.editOf ? editedAllowedAt(answered.at) : allowedAt(answered.at),
        permit: { basis: 'person', ...(decided.command ? { command: decided.command } : {}) },
        ...(request.editOf ? { args } : {}),
      };
    }
    return {
      kind: 'refuse',
      message: `${tool.name} was not run: its arguments or target file kept changing while the person was asked.`,
    };
  }
}

/** Waits for `ready`; false when the run was stopped first. */
async function untilReady(ready: Promise<void>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void ready.then(done, done);
  });
  return !signal.aborted;
}

function withoutReady(request: GateRequest): GateRequest {
  const { ready: _ready, ...rest } = request;
  return rest;
}

async function previewFor(
  request: GateRequest,
  target: ToolTarget,
  decided: PolicyDecision,
  sandbox: SandboxState,
): Promise<ToolPreview> {
  const { tool, args, ctx } = request;
  if (tool.preview) {
    try {
      return await tool.preview(args as never, ctx);
    } catch (error) {
      return {
        kind: 'text',
        text: `The preview failed (${(error as Error).message}). Arguments:\n${show(args)}`,
      };
    }
  }
  switch (target.kind) {
    case 'command':
      return {
        kind: 'command',
        command: target.command,
        cwd: ctx.folder,
        parts: decided.parts ?? [],
        sandbox,
      };
    case 'url':
      return { kind: 'url', url: target.url, method: 'GET' };
    case 'path':
    case 'none':
      return { kind: 'text', text: `${tool.name}\n${show(args)}` };
  }
}

function show(args: unknown): string {
  return safeJsonStringify(args, { space: 2 });
}

function deniedVerdict(outcome: ApprovalOutcome): GateVerdict {
  if (outcome.answer.kind === 'deny-with-note') {
    return {
      kind: 'refuse',
      message: `The person denied this call with a note: ${outcome.answer.note}`,
    };
  }
  return stoppedVerdict(outcome.by);
}

function stoppedVerdict(by: AnsweredBy): GateVerdict {
  switch (by) {
    case 'person':
    case 'rule':
      return { kind: 'refuse', message: 'The person denied this call; it did not run.' };
    case 'stop':
      return {
        kind: 'refuse',
        message: 'The run was stopped before the person answered; the call did not run.',
      };
    case 'closed':
      return {
        kind: 'refuse',
        message: 'The window closed before the person answered; the call did not run.',
      };
    case 'no-tty':
      return {
        kind: 'refuse',
        message:
          "Refused: this call needs the person's approval and no one can approve it here (no terminal). " +
          'Do not retry it; finish with what runs without approval, or explain what you would do.',
      };
  }
}
