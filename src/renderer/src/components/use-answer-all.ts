// One answer for every card of a stack, sent in order (each is its own request to main, which
// checks each against its own card).
import { useCallback } from 'react';
import type { ApprovalStack } from '../stores/approval-stacks';
import { useSessionStore } from '../stores/session-store';

export function useAnswerAll(stack: ApprovalStack | undefined): (allow: boolean) => void {
  const answer = useSessionStore((s) => s.answer);
  return useCallback(
    (allow: boolean) => {
      if (!stack) return;
      void (async () => {
        for (const member of stack.members) {
          await answer(member.requestId, member.argsHash, { kind: allow ? 'allow-once' : 'deny' });
        }
      })();
    },
    [stack, answer],
  );
}
