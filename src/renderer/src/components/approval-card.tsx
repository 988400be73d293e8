import { useEffect, useRef, useState } from 'react';
import type { ApprovalAnswer } from '../../../shared/tool-types';
import { isAllow } from '../../../shared/tool-types';
import { useSessionStore } from '../stores/session-store';
import type { TraceItem } from '../stores/trace-model';
import { ApprovalPreview } from './approval-preview';

type ApprovalItem = Extract<TraceItem, { kind: 'approval' }>;

/** Keyboard answers for the first pending card, ignored while typing in a field. */
type SimpleAnswer = Extract<
  ApprovalAnswer,
  { kind: 'allow-once' | 'allow-session' | 'allow-always' | 'deny' }
>;

const SHORTCUTS: Record<string, SimpleAnswer['kind'] | 'note'> = {
  y: 'allow-once',
  s: 'allow-session',
  a: 'allow-always',
  n: 'deny',
  d: 'note',
};

const ANSWER_LABELS: Record<ApprovalAnswer['kind'], string> = {
  'allow-once': 'Allowed once',
  'allow-session': 'Allowed for this session',
  'allow-always': 'Always allowed in this project',
  'allow-for': 'Allowed for a while',
  deny: 'Denied',
  'deny-with-note': 'Denied with a note',
};

export function ApprovalCard(props: {
  approval: ApprovalItem;
  active: boolean;
}): React.JSX.Element {
  const { approval, active } = props;
  const answerApproval = useSessionStore((s) => s.answer);
  const [noting, setNoting] = useState(false);
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const noteField = useRef<HTMLTextAreaElement>(null);
  const pending = approval.answer === null && !sent;

  useEffect(() => {
    if (!active || !pending) return;
    function onKey(event: KeyboardEvent): void {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT')) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const choice = SHORTCUTS[event.key.toLowerCase()];
      if (!choice) return;
      event.preventDefault();
      if (choice === 'note') setNoting(true);
      else answer({ kind: choice });
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  useEffect(() => {
    if (noting) noteField.current?.focus();
  }, [noting]);

  function answer(value: ApprovalAnswer): void {
    setSent(true);
    void answerApproval(approval.id, approval.argsHash, value).then(() => {
      // If main refused the answer the card must stay answerable.
      if (useSessionStore.getState().actionError) setSent(false);
    });
  }

  return (
    <article
      className={`approval-card${pending ? ' pending' : ''}`}
      aria-label={`Approval for ${approval.name}`}
    >
      <header className="approval-head">
        <span className={`effect effect-${approval.effect}`}>{approval.effect}</span>
        <strong>{approval.name}</strong>
        <span className="muted">{pending ? 'wants to run' : ''}</span>
      </header>
      {approval.reasons.length > 0 && (
        <ul className="approval-reasons">
          {approval.reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
      <ApprovalPreview preview={approval.preview} />
      {approval.answer ? (
        <p className={`approval-outcome ${isAllow(approval.answer) ? 'allowed' : 'denied'}`}>
          {ANSWER_LABELS[approval.answer.kind]}
          {approval.by && approval.by !== 'person' ? ` (${approval.by})` : ''}
        </p>
      ) : noting ? (
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
              if (e.key === 'Escape') setNoting(false);
            }}
          />
          <div className="approval-actions">
            <button type="submit" className="button danger" disabled={!note.trim() || sent}>
              Deny with note
            </button>
            <button type="button" className="button ghost" onClick={() => setNoting(false)}>
              Back
            </button>
          </div>
        </form>
      ) : (
        <div className="approval-actions">
          <button
            type="button"
            className="button primary"
            disabled={sent}
            onClick={() => answer({ kind: 'allow-once' })}
          >
            Allow once <kbd>Y</kbd>
          </button>
          <button
            type="button"
            className="button"
            disabled={sent}
            onClick={() => answer({ kind: 'allow-session' })}
          >
            Allow for session <kbd>S</kbd>
          </button>
          <button
            type="button"
            className="button"
            disabled={sent}
            onClick={() => answer({ kind: 'allow-always' })}
          >
            Always <kbd>A</kbd>
          </button>
          <span className="spacer" />
          <button
            type="button"
            className="button danger-outline"
            disabled={sent}
            onClick={() => answer({ kind: 'deny' })}
          >
            Deny <kbd>N</kbd>
          </button>
          <button
            type="button"
            className="button ghost"
            disabled={sent}
            onClick={() => setNoting(true)}
          >
            Deny with note <kbd>D</kbd>
          </button>
        </div>
      )}
    </article>
  );
}
