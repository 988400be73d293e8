// What an answer leaves behind: nothing for "once" or a denial, a grant for the session or for
// some minutes, or a rule stored with the project ("always", widened only as the person chose).
import type { ApprovalAnswer } from '../../shared/tool-types';
import { applyWidening } from './always-answer';
import type { GateRequest } from './gate';
import type { Clock, GrantBook } from './grant-book';
import type { PermissionRule } from './permission-rule';
import { withRule, type PermissionsStore } from './project-permissions-store';

const MINUTE = 60_000;

export interface AnswerMemory {
  readonly grants: GrantBook;
  readonly store: PermissionsStore;
  readonly clock: Clock;
}

/** Keeps what `answer` allows beyond this call, as the rules the card offered (`grantable`). */
export async function rememberAnswer(
  memory: AnswerMemory,
  answer: ApprovalAnswer,
  grantable: readonly PermissionRule[],
  request: GateRequest,
): Promise<void> {
  const { folder, sessionId } = request.ctx;
  const effect = request.tool.effect;
  switch (answer.kind) {
    case 'allow-once':
    case 'deny':
    case 'deny-with-note':
      return;
    case 'allow-session':
      for (const rule of grantable) {
        memory.grants.add({ folder, rule, effect, scope: { kind: 'session', sessionId } });
      }
      return;
    case 'allow-for': {
      const expiresAt = memory.clock() + answer.minutes * MINUTE;
      for (const rule of grantable) {
        memory.grants.add({ folder, rule, effect, scope: { kind: 'until', expiresAt } });
      }
      return;
    }
    case 'allow-always': {
      if (grantable.length === 0) return;
      let stored = await memory.store.load(folder);
      for (const rule of applyWidening(grantable, answer.widen ?? [])) {
        stored = withRule(stored, rule, memory.clock());
      }
      await memory.store.save(folder, stored);
      return;
    }
  }
}
