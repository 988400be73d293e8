import { Fragment, memo, useEffect, useRef, useState } from 'react';
import type { AlwaysRulePreview } from '../../../shared/api';
import type { ApprovalAnswer } from '../../../shared/tool-types';
import { isAllow } from '../../../shared/tool-types';
import { visibleText } from '../../../shared/visible-text';
import { errorMessage } from '../error-message';
import { useSessionStore } from '../stores/session-store';
import type { TraceItem } from '../stores/trace-model';
import { alwaysAnswer, initialSelection, select, type AlwaysSelection } from './always-rule-choice';
import { AlwaysRuleConfirm } from './always-rule-confirm';
import { ApprovalScope } from './approval-scope';
import { ApprovalDetails, previewSummary } from './approval-details';
import { SHORTCUT_KEYS, shortcutFor, type Choice } from './approval-shortcuts';
import { VisibleText } from './visible-text';

type ApprovalItem = Extract<TraceItem, { kind: 'approval' }>;

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
  { choice: 'deny', label: 'Deny', tone: 'danger-outline' },
  { choice: 'note', label: 'Deny with note', tone: 'ghost' },
];

type Step =
  | { readonly kind: 'choose' }
  | { readonly kind: 'note' }
  | {
      readonly kind: 'always';
      readonly preview: AlwaysRulePreview | null;
      /** Per sub-command, the rule picked: the exact one unless the person widens it. */
      readonly selection: AlwaysSelection;
      readonly error?: string;
    };

export const ApprovalCard = memo(function ApprovalCard(props: {
  approval: ApprovalItem;
  /** The first pending card: the one keyboard answers go to. */
  active: boolean;
  /** Place among the pending cards (1-based) and how many are pending. */
  queue: { readonly position: number; readonly count: number } | null;
}): React.JSX.Element {
  const { approval, active, queue } = props;
  const answerApproval = useSessionStore((s) => s.answer);
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const pending = approval.answer === null && !sent;

  useEffect(() => {
    if (!active || !pending) return;
    function onKey(event: KeyboardEvent): void {
      const action = shortcutFor(event, step.kind);
      if (!action) return;
      switch (action.kind) {
        case 'back':
          setStep({ kind: 'choose' });
          break;
        case 'confirm-always':
          if (step.kind !== 'always' || !step.preview) return;
          answer(alwaysAnswer(step.preview, step.selection));
          break;
        case 'choose':
          choose(action.choice);
          break;
      }
      event.preventDefault();
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
      case 'always':
        setStep({ kind: 'always', preview: null, selection: [] });
        window.tandem.previewAlwaysRule(approval.id).then(
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
    void answerApproval(approval.id, approval.argsHash, value).then(() => {
      // If main refused the answer the card must stay answerable.
      if (useSessionStore.getState().actionError) setSent(false);
    });
  }

  return (
    <article
      className={`approval-card${pending ? ' pending' : ''}${pending && !active ? ' queued' : ''}`}
      aria-label={`Approval for ${visibleText(approval.name, { layout: 'inline' })}`}
    >
      <header className="approval-head">
        <span className={`effect effect-${approval.effect}`}>{approval.effect}</span>
        <strong className="approval-name">
          <VisibleText text={approval.name} layout="inline" />
        </strong>
        {approval.answer ? (
          <span className="tool-args">{previewSummary(approval.preview)}</span>
        ) : (
          <span className="muted">{pending ? 'wants to run' : ''}</span>
        )}
        <span className="spacer" />
        {approval.answer && (
          <span className={`approval-outcome ${isAllow(approval.answer) ? 'allowed' : 'denied'}`}>
            {ANSWER_LABELS[approval.answer.kind]}
            {approval.answer.kind === 'allow-for' ? ` (${approval.answer.minutes} minutes)` : ''}
            {approval.by && approval.by !== 'person' ? ` (${approval.by})` : ''}
          </span>
        )}
        {pending && queue && queue.count > 1 && (
          <span className="muted">
            {queue.position} of {queue.count} waiting
          </span>
        )}
      </header>
      {approval.answer ? (
        // Answered: one line, with what was shown kept a click away (the trace stays short).
        <details className="approval-shown">
          <summary>What you were shown</summary>
          <ApprovalDetails approval={approval} />
        </details>
      ) : (
        <ApprovalDetails approval={approval} />
      )}
      {!approval.answer && step.kind === 'choose' && <ApprovalScope storable={approval.storable} />}
      {approval.answer ? null : step.kind === 'note' ? (
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
          {CHOICE_BUTTONS.map(({ choice, label, tone }) => (
            <Fragment key={choice}>
              {choice === 'deny' && <span className="spacer" />}
              <button
                type="button"
                className={`button${tone ? ` ${tone}` : ''}`}
                disabled={sent}
                onClick={() => choose(choice)}
                aria-keyshortcuts={SHORTCUT_KEYS[choice].toUpperCase()}
              >
                {label} <kbd>{SHORTCUT_KEYS[choice].toUpperCase()}</kbd>
              </button>
            </Fragment>
          ))}
        </div>
      )}
    </article>
  );
});
