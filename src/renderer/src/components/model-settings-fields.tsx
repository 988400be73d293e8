import { useState } from 'react';
import type { ModelSettings } from '../../../shared/model-settings';
import { useSettingsStore } from '../stores/settings-store';

interface Draft {
  readonly contextTokens: string;
  readonly input: string;
  readonly cached: string;
  readonly output: string;
}

const FIELDS: readonly { key: keyof Draft; label: string; hint: string }[] = [
  {
    key: 'contextTokens',
    label: 'Context window (tokens)',
    hint: "Leave empty to use the provider's model list or Tandem's table. Set it when a server runs the model with less (Ollama's num_ctx).",
  },
  {
    key: 'input',
    label: 'Input price ($ per million tokens)',
    hint: 'Optional: gives the session a cost.',
  },
  { key: 'cached', label: 'Cached input price ($ per million)', hint: 'Empty: the input price.' },
  { key: 'output', label: 'Output price ($ per million tokens)', hint: '' },
];

function draftOf(settings: ModelSettings): Draft {
  const text = (value: number | undefined): string => (value === undefined ? '' : String(value));
  return {
    contextTokens: text(settings.contextTokens),
    input: text(settings.prices?.inputPerMillion),
    cached: text(settings.prices?.cachedInputPerMillion),
    output: text(settings.prices?.outputPerMillion),
  };
}

/** Empty fields are left out; main checks the numbers again (the window is input). */
function settingsOf(draft: Draft): ModelSettings {
  const number = (text: string): number | undefined =>
    text.trim() === '' ? undefined : Number(text);
  const contextTokens = number(draft.contextTokens);
  const input = number(draft.input);
  const output = number(draft.output);
  const cached = number(draft.cached);
  return {
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    ...(input !== undefined || output !== undefined
      ? {
          prices: {
            inputPerMillion: input ?? 0,
            outputPerMillion: output ?? 0,
            ...(cached !== undefined ? { cachedInputPerMillion: cached } : {}),
          },
        }
      : {}),
  };
}

/** The chosen model's window and prices. */
export function ModelSettingsFields(): React.JSX.Element | null {
  const { settings, busy, saveModelSettings } = useSettingsStore();
  const [draft, setDraft] = useState<{ model: string; value: Draft } | null>(null);
  if (!settings || settings.model === '') return null;
  const saved = draftOf(settings.modelSettings);
  const shown = draft?.model === settings.model ? draft.value : saved;
  const dirty = FIELDS.some((field) => shown[field.key] !== saved[field.key]);

  return (
    <form
      className="settings-form model-settings"
      aria-label={`Settings for ${settings.model}`}
      onSubmit={(event) => {
        event.preventDefault();
        void saveModelSettings(settings.model, settingsOf(shown)).then(
          (ok) => ok && setDraft(null),
        );
      }}
    >
      {FIELDS.map((field) => (
        <label key={field.key} className="field">
          <span className="field-label">{field.label}</span>
          <input
            type="number"
            min={0}
            step="any"
            value={shown[field.key]}
            onChange={(event) =>
              setDraft({
                model: settings.model,
                value: { ...shown, [field.key]: event.target.value },
              })
            }
          />
          {field.hint && <span className="field-hint">{field.hint}</span>}
        </label>
      ))}
      <div className="settings-actions">
        <button type="submit" className="button" disabled={!dirty || busy !== null}>
          {dirty ? `Save for ${settings.model}` : `Saved for ${settings.model}`}
        </button>
      </div>
    </form>
  );
}
