import { useState } from 'react';
import type { ProviderTimeoutSettings } from '../../../shared/provider-timeouts';
import { TIMEOUT_FIELDS } from '../../../shared/provider-timeouts';
import { useSettingsStore } from '../stores/settings-store';

type Draft = Record<keyof ProviderTimeoutSettings, string>;

function draftOf(timeouts: ProviderTimeoutSettings): Draft {
  return {
    connectSeconds: String(timeouts.connectSeconds),
    idleSeconds: String(timeouts.idleSeconds),
    requestSeconds: String(timeouts.requestSeconds),
  };
}

/** How long Tandem waits for the provider; main checks the values again (the window is input). */
export function TimeoutFields(): React.JSX.Element | null {
  const { settings, busy, saveTimeouts } = useSettingsStore();
  const [draft, setDraft] = useState<Draft | null>(null);
  if (!settings) return null;
  const shown = draft ?? draftOf(settings.timeouts);
  const dirty = TIMEOUT_FIELDS.some((f) => shown[f.key] !== String(settings.timeouts[f.key]));

  async function submit(): Promise<void> {
    const value = {
      connectSeconds: Number(shown.connectSeconds),
      idleSeconds: Number(shown.idleSeconds),
      requestSeconds: Number(shown.requestSeconds),
    };
    if (await saveTimeouts(value)) setDraft(null);
  }

  return (
    <form
      className="settings-form timeouts"
      aria-label="Provider timeouts"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {TIMEOUT_FIELDS.map((field) => (
        <label key={field.key} className="field">
          <span className="field-label">{field.label} (seconds)</span>
          <input
            type="number"
            min={field.min}
            max={field.max}
            step={1}
            value={shown[field.key]}
            onChange={(event) => setDraft({ ...shown, [field.key]: event.target.value })}
          />
          <span className="field-hint">{field.hint}</span>
        </label>
      ))}
      <div className="settings-actions">
        <button type="submit" className="button" disabled={!dirty || busy !== null}>
          {dirty ? 'Save timeouts' : 'Timeouts saved'}
        </button>
      </div>
    </form>
  );
}
