// The approval part of a tool card: why it asks, exactly what would happen, and the answers,
// each saying what it covers before it is clicked. Keys answer the first pending card; when that
// card is out of view the first key brings it into view instead of answering unseen.
import { Fragment, memo, useEffect, useRef, useState } from 'react';
import type { AlwaysRulePreview } from '../../../shared/api';
import type { ApprovalAnswer, EditedArgs } from '../../../shared/tool-types';
import { isAllow } from '../../../shared/tool-types';
import { visibleText } from '../../../shared/visible-text';
import { errorMessage } from '../error-message';
import { useSessionStore } from '../stores/session-store';
import { editableText } from '../stores/edited-args';
import type { ApprovalState, ToolItem } from '../stores/trace-model';
import { alwaysAnswer, initialSelection, select, type AlwaysSelection } from './always-rule-choice';
import { AlwaysRuleConfirm } from './always-rule-confirm';
import { ApprovalEditForm } from './approval-edit-form';
import { ApprovalDetails } from './approval-details';
import { scopeOf } from './approval-scope';
import { SHORTCUT_KEYS, shortcutFor, type Choice } from './approval-shortcuts';
import { formatClock } from './durations';
import { RuleText } from './rule-text';
import { anyInTraceView, inTraceView, revealInTrace } from './trace-view';
import { VisibleText } from './visible-text';

/** "Allow for a while" on the card: a timed grant. */
const ALLOW_FOR_MINUTES = 30;

const ANSWER_LABELS: Record<ApprovalAnswer['kind'], string> = {
  'allow-once': 'Allowed once',
  'allow-session': 'Allowed for this session',
  'allow-always': 'Always allowed in this project',
  'allow-for': 'Allowed for a while',
  deny: 'Denied',
  'deny-with-note': 'Denied with a note',
};

const BY_LABELS: Record<NonNullable<ApprovalState['by']>, string> = {
  person: 'you',
  stop: 'the run was stopped',
  closed: 'the window closed',
  'no-tty': 'no terminal',
  rule: 'a rule',
};

/** The choice buttons, in order; the deny pair sits apart at the end. */
const CHOICE_BUTTONS: readonly {
  readonly choice: Choice;
  readonly label: string;
  readonly tone?: 'primary' | 'danger-outline' | 'ghost';
}[] = [
  { choice: 'allow-once', label: 'Allow once', tone: 'primary' },
  { choice: 'allow-session', label: 'Allow for session' },
  { choice: 'allow-for', label: `Allow for ${ALLOW_FOR_MINUTES} minutes` },
  { choice: 'always', label: 'Always allow in this project…' },
  { choice: 'edit', label: 'Edit, then allow…' },
  { choice: 'deny', label: 'Deny', tone: 'danger-outline' },
  { choice: 'note', label: 'Deny with note', tone: 'ghost' },
];

type Step =
  | { readonly kind: 'choose' }
  | { readonly kind: 'note' }
  | { readonly kind: 'edit' }
  | {
      readonly kind: 'always';
      readonly preview: AlwaysRulePreview | null;
      /** Per sub-command, the rule picked: the exact one unless the person widens it. */
      readonly selection: AlwaysSelection;
      readonly error?: string;
    };

export const ApprovalPanel = memo(function ApprovalPanel(props: {
  tool: ToolItem & { readonly approval: ApprovalState };
  /** The first pending card: the one keyboard answers go to. */
  active: boolean;
  /** Place among the pending cards (1-based) and how many are pending. */
  queue: { readonly position: number; readonly count: number } | null;
  /** Shift+Y / Shift+N on a stack: every card of it at once. */
  onAll?: (allow: boolean) => void;
}): React.JSX.Element {
  const { tool, active, queue, onAll } = props;
  const approval = tool.approval;
  const answerApproval = useSessionStore((s) => s.answer);
  const answerEdited = useSessionStore((s) => s.answerEdited);
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const panel = useRef<HTMLElement>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const pending = approval.answer === null && !sent;

  // A new card takes the focus, unless the person is typing (a task, a note elsewhere).
  useEffect(() => {
    if (!active || !pending) return;
    const focused = document.activeElement as HTMLElement | null;
    const free =
      !focused ||
      focused === document.body ||
      focused.dataset.composer === 'empty' ||
      (focused.closest('.trace') !== null && !/^(INPUT|TEXTAREA|SELECT)$/.test(focused.tagName));
    if (free) panel.current?.focus({ preventScroll: true });
  }, [active, pending]);

  useEffect(() => {
    if (!active || !pending) return;
    function onKey(event: KeyboardEvent): void {
      const action = shortcutFor(event, step.kind);
      if (!action) return;
      event.preventDefault();
      // One key brings an unseen card into view; the next one answers it. For the whole stack,
      // any of its cards in view is enough: the summary and the answers are together.
      const seen =
        action.kind === 'all' && onAll
          ? anyInTraceView('.stack-header, .approval-panel.pending')
          : !panel.current || inTraceView(panel.current);
      if (!seen && panel.current) {
        revealInTrace(panel.current);
        return;
      }
      switch (action.kind) {
        case 'back':
          setStep({ kind: 'choose' });
          return;
        case 'confirm-always':
          if (step.kind === 'always' && step.preview) {
            answer(alwaysAnswer(step.preview, step.selection));
          }
          return;
        case 'all':
          if (onAll) onAll(action.allow);
          else answer({ kind: action.allow ? 'allow-once' : 'deny' });
          return;
        case 'choose':
          choose(action.choice);
          return;
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  useEffect(() => {
    if (step.kind === 'note') noteField.current?.focus();
  }, [step.kind]);

  function choose(choice: Choice): void {
    switch (choice) {
      case 'allow-once':
      case 'allow-session':
      case 'deny':
        return answer({ kind: choice });
      case 'allow-for':
        return answer({ kind: 'allow-for', minutes: ALLOW_FOR_MINUTES });
      case 'note':
        return setStep({ kind: 'note' });
      case 'edit':
        if (approval.editable) setStep({ kind: 'edit' });
        return;
      case 'always':
        setStep({ kind: 'always', preview: null, selection: [] });
        window.tandem.previewAlwaysRule(approval.requestId).then(
          (preview) =>
            setStep((s) =>
              s.kind === 'always'
                ? { kind: 'always', preview, selection: initialSelection(preview) }
                : s,
            ),
          (error: unknown) =>
            setStep((s) =>
              s.kind === 'always'
                ? { kind: 'always', preview: null, selection: [], error: errorMessage(error) }
                : s,
            ),
        );
        return;
    }
  }

  function answer(value: ApprovalAnswer): void {
    setSent(true);
    // If main refused the answer the card must stay answerable.
    void answerApproval(approval.requestId, approval.argsHash, value).then((ok) => {
      if (!ok) setSent(false);
    });
  }

  function allowEdited(edited: EditedArgs): void {
    setSent(true);
    void answerEdited(approval.requestId, approval.argsHash, edited).then((ok) => {
      if (!ok) setSent(false);
    });
  }

  const name = visibleText(tool.name, { layout: 'inline' });
  const buttons = CHOICE_BUTTONS.filter((b) => b.choice !== 'edit' || approval.editable);
  if (approval.answer) {
    // Answered: one line, with what was shown kept a click away (the trace stays short).
    const allowed = isAllow(approval.answer);
    return (
      <article className="approval-panel answered" aria-label={`Approval for ${name}`}>
        <p className="approval-outcome-line">
          <span className={`approval-outcome ${allowed ? 'allowed' : 'denied'}`}>
            {ANSWER_LABELS[approval.answer.kind]}
            {approval.answer.kind === 'allow-for' ? ` (${approval.answer.minutes} minutes)` : ''}
            {tool.edited ? ', your edited version' : ''}
          </span>
          <span className="muted">
            {approval.by && approval.by !== 'person' ? ` · ${BY_LABELS[approval.by]}` : ''}
            {approval.answeredAt !== undefined ? ` · ${formatClock(approval.answeredAt)}` : ''}
          </span>
        </p>
        {approval.answer.kind === 'deny-with-note' && (
          <p className="approval-note-shown">
            Your note: <VisibleText text={approval.answer.note} layout="lines" />
          </p>
        )}
        <details className="approval-shown">
          <summary>What you were shown</summary>
          <ApprovalDetails approval={approval} />
        </details>
      </article>
    );
  }

  return (
    <article
      ref={panel}
      tabIndex={-1}
      className={`approval-panel pending${active ? ' active' : ' queued'}`}
      aria-label={`Approval for ${name}`}
    >
      <header className="approval-head">
        <strong>Wants to run</strong>
        <span className="spacer" />
        {queue && queue.count > 1 && (
          <span className="muted nowrap">
            {queue.position} of {queue.count} waiting
          </span>
        )}
      </header>
      <ApprovalDetails approval={approval} />
      {step.kind === 'edit' && approval.editable ? (
        <ApprovalEditForm
          kind={approval.editable}
          initial={editableText(approval.args, approval.editable)}
          disabled={sent}
          onAllow={allowEdited}
          onBack={() => setStep({ kind: 'choose' })}
        />
      ) : step.kind === 'note' ? (
        <form
          className="approval-note"
          onSubmit={(event) => {
            event.preventDefault();
            if (note.trim()) answer({ kind: 'deny-with-note', note: note.trim() });
          }}
        >
          <textarea
            ref={noteField}
            aria-label="Note to the agent"
            placeholder="Tell the agent why, or what to do instead…"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setStep({ kind: 'choose' });
            }}
          />
          <div className="approval-actions">
            <button type="submit" className="button danger" disabled={!note.trim() || sent}>
              Deny with note
            </button>
            <button
              type="button"
              className="button ghost"
              onClick={() => setStep({ kind: 'choose' })}
            >
              Back
            </button>
          </div>
        </form>
      ) : step.kind === 'always' ? (
        <AlwaysRuleConfirm
          preview={step.preview}
          selection={step.selection}
          error={step.error ?? null}
          disabled={sent}
          onSelect={(ruleIndex, choiceIndex) =>
            setStep((s) =>
              s.kind === 'always'
                ? { ...s, selection: select(s.selection, ruleIndex, choiceIndex) }
                : s,
            )
          }
          onConfirm={() => step.preview && answer(alwaysAnswer(step.preview, step.selection))}
          onBack={() => setStep({ kind: 'choose' })}
        />
      ) : (
        <div className="approval-actions">
          {buttons.map(({ choice, label, tone }) => {
            const scope = scopeOf(choice, approval.storable, ALLOW_FOR_MINUTES);
            return (
              <Fragment key={choice}>
                {choice === 'deny' && <span className="spacer" />}
                <button
                  type="button"
                  className={`button choice${tone ? ` ${tone}` : ''}`}
                  disabled={sent}
                  onClick={() => choose(choice)}
                  aria-keyshortcuts={SHORTCUT_KEYS[choice].toUpperCase()}
                >
                  <span className="choice-label">
                    {label} <kbd>{SHORTCUT_KEYS[choice].toUpperCase()}</kbd>
                  </span>
                  {scope && (
                    <span className="choice-scope">
                      <RuleText text={scope} />
                    </span>
                  )}
                </button>
              </Fragment>
            );
          })}
        </div>
      )}
    </article>
  );
});
