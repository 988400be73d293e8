// Before "Always allow" is stored: per sub-command the rule itself (its exact words), the
// widenings the person may pick instead (`npm test *`), what each accepts in words, and what
// each would have let run without asking among this project's earlier calls (computed in main
// by the permission engine). Widening is a choice here, never the default.
import { useId } from 'react';
import type { AlwaysRuleChoice, AlwaysRulePreview } from '../../../shared/api';
import { isSelectable, type AlwaysSelection } from './always-rule-choice';
import { RuleText } from './rule-text';

export function AlwaysRuleConfirm(props: {
  preview: AlwaysRulePreview | null;
  selection: AlwaysSelection;
  error: string | null;
  disabled: boolean;
  onSelect: (ruleIndex: number, choiceIndex: number) => void;
  onConfirm: () => void;
  onBack: () => void;
}): React.JSX.Element {
  const { preview, error, selection } = props;
  const name = useId();
  const storable = preview !== null && preview.rules.length > 0;
  return (
    <div className="always-confirm" aria-label="Always allow: the rule to store">
      {error ? (
        <p className="warn-text">{error}</p>
      ) : !preview ? (
        <p className="muted">Checking this project&apos;s earlier calls…</p>
      ) : !storable ? (
        <p className="always-summary">
          <RuleText text={preview.summary} />
        </p>
      ) : (
        <>
          <p>Will store for this project (you can delete it in Settings):</p>
          {preview.choices.map((choices, ruleIndex) => (
            <RuleChoices
              key={ruleIndex}
              name={`${name}-${ruleIndex}`}
              choices={choices}
              picked={selection[ruleIndex] ?? 0}
              onPick={(choiceIndex) => props.onSelect(ruleIndex, choiceIndex)}
            />
          ))}
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

function RuleChoices(props: {
  name: string;
  choices: readonly AlwaysRuleChoice[];
  picked: number;
  onPick: (choiceIndex: number) => void;
}): React.JSX.Element {
  const { choices, picked } = props;
  const offered = choices
    .map((choice, index) => ({ choice, index }))
    .filter((c) => isSelectable(c.choice));
  const refused = choices.filter((c) => !isSelectable(c));
  // One choice only: nothing to pick, just what it stores.
  const single = offered.length === 1;
  return (
    <fieldset className="always-rule">
      {offered.map(({ choice, index }) => (
        <label key={index} className={`always-choice${index === picked ? ' picked' : ''}`}>
          {!single && (
            <input
              type="radio"
              name={props.name}
              checked={index === picked}
              onChange={() => props.onPick(index)}
            />
          )}
          <span className="always-choice-text">
            <span className="rule">
              <RuleText text={choice.rule} />
            </span>
            <span className="always-accepts">
              <RuleText text={choice.accepts} />
            </span>
            <span className="always-summary">
              <RuleText text={choice.summary} />
            </span>
          </span>
        </label>
      ))}
      {refused.length > 0 && (
        <details className="always-refused">
          <summary>Not offered ({refused.length})</summary>
          <ul>
            {refused.map((choice, i) => (
              <li key={i}>
                <RuleText text={choice.refused ?? ''} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </fieldset>
  );
}
