// Above several cards one turn proposed at once: what they are in one line, and one answer for
// all of them (each card below can still be answered on its own).
import { useState } from 'react';
import type { ApprovalStack } from '../stores/approval-stacks';
import { useAnswerAll } from './use-answer-all';

export function StackHeader({ stack }: { stack: ApprovalStack }): React.JSX.Element {
  const answerAll = useAnswerAll(stack);
  const [sent, setSent] = useState(false);
  const all = (allow: boolean): void => {
    setSent(true);
    answerAll(allow);
  };
  return (
    <section className="stack-header" aria-label="Approvals of one step">
      <p>
        <strong>
          {stack.members.length} changes wait for you: {stack.summary}.
        </strong>{' '}
        <span className="muted">Answer each below, or all at once (each runs only once).</span>
      </p>
      <div className="approval-actions">
        <button
          type="button"
          className="button primary"
          disabled={sent}
          onClick={() => all(true)}
          aria-keyshortcuts="Shift+Y"
        >
          Allow all {stack.members.length} <kbd>⇧Y</kbd>
        </button>
        <button
          type="button"
          className="button danger-outline"
          disabled={sent}
          onClick={() => all(false)}
          aria-keyshortcuts="Shift+N"
        >
          Deny all <kbd>⇧N</kbd>
        </button>
      </div>
    </section>
  );
}
