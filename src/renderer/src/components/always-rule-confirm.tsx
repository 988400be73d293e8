// Before "Always allow" is stored: the rule itself, and what it would have let run without
// asking among this project's earlier calls (computed in main by the permission engine).
import type { AlwaysRulePreview } from '../../../shared/api';
import { VisibleText } from './visible-text';

export function AlwaysRuleConfirm(props: {
  preview: AlwaysRulePreview | null;
  error: string | null;
  disabled: boolean;
  onConfirm: () => void;
  onBack: () => void;
}): React.JSX.Element {
  const { preview, error } = props;
  const storable = preview !== null && preview.rules.length > 0;
  return (
    <div className="always-confirm" aria-label="Always allow: the rule to store">
      {error ? (
        <p className="warn-text">{error}</p>
      ) : !preview ? (
        <p className="muted">Checking this project&apos;s earlier calls…</p>
      ) : (
        <>
          <p>
            {storable ? 'Will store the rule ' : ''}
            {preview.rules.map((rule, i) => (
              <code key={i} className="rule">
                <VisibleText text={rule} layout="inline" />
              </code>
            ))}
            {storable ? ' for this project. You can delete it in Settings.' : ''}
          </p>
          <p className="always-summary">
            <VisibleText text={preview.summary} layout="inline" />
          </p>
        </>
      )}
      <div className="approval-actions">
        <button
          type="button"
          className="button primary"
          disabled={props.disabled || !storable}
          onClick={props.onConfirm}
        >
          Store rule and allow <kbd>Enter</kbd>
        </button>
        <button type="button" className="button ghost" onClick={props.onBack}>
          Back <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  );
}
