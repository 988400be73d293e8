// "Edit, then allow": the person changes the proposed command (or the content a write would put
// in the file) and allows their version once. Main checks the edit against the tool, judges it
// afresh and asks again when it needs more than this card showed; what runs is exactly this text.
import { useEffect, useRef, useState } from 'react';
import type { EditedArgs } from '../../../shared/tool-types';

export function ApprovalEditForm(props: {
  kind: EditedArgs['kind'];
  initial: string;
  disabled: boolean;
  onAllow: (edited: EditedArgs) => void;
  onBack: () => void;
}): React.JSX.Element {
  const [text, setText] = useState(props.initial);
  const field = useRef<HTMLTextAreaElement>(null);
  const what = props.kind === 'command' ? 'command' : 'content';
  const empty = props.kind === 'command' && text.trim() === '';

  useEffect(() => {
    field.current?.focus();
  }, []);

  function allow(): void {
    if (empty || props.disabled) return;
    props.onAllow(
      props.kind === 'command'
        ? { kind: 'command', command: text }
        : { kind: 'content', content: text },
    );
  }

  return (
    <form
      className="approval-edit"
      onSubmit={(event) => {
        event.preventDefault();
        allow();
      }}
    >
      <label className="field-label" htmlFor={`edit-${what}`}>
        Your version of the {what}
      </label>
      <textarea
        id={`edit-${what}`}
        ref={field}
        aria-label={`Edited ${what}`}
        className={props.kind === 'command' ? 'edit-command' : 'edit-content'}
        value={text}
        spellCheck={false}
        rows={props.kind === 'command' ? Math.min(6, text.split('\n').length + 1) : 12}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            allow();
          }
          if (event.key === 'Escape') props.onBack();
        }}
      />
      <p className="muted edit-hint">
        Exactly this runs. Tandem checks it again and asks once more if it needs more than this card
        showed; the agent is told you edited it.
      </p>
      <div className="approval-actions">
        <button type="submit" className="button primary" disabled={empty || props.disabled}>
          Allow edited version <kbd>Ctrl+Enter</kbd>
        </button>
        <button type="button" className="button ghost" onClick={props.onBack}>
          Back <kbd>Esc</kbd>
        </button>
      </div>
    </form>
  );
}
