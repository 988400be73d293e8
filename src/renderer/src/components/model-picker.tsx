import { useSettingsStore } from '../stores/settings-store';

/** The model name field, with the list the provider offers once loaded. */
export function ModelPicker({ onCommit }: { onCommit: () => void }): React.JSX.Element {
  const { form, models, busy, editForm, loadModels, save } = useSettingsStore();

  return (
    <div className="field">
      <label className="field-label" htmlFor="settings-model">
        Model
      </label>
      <div className="field-row">
        <input
          id="settings-model"
          type="text"
          value={form.model}
          placeholder="e.g. gpt-4.1-mini, qwen2.5-coder:7b"
          spellCheck={false}
          onChange={(event) => editForm({ model: event.target.value })}
          onBlur={onCommit}
        />
        <button
          type="button"
          className="button"
          // A save in flight (the field's blur) must not swallow this click; loading saves first.
          disabled={busy === 'models' || form.baseUrl.trim() === ''}
          onClick={() => void loadModels()}
        >
          {busy === 'models' ? 'Loading…' : 'Load models'}
        </button>
      </div>
      {models !== null &&
        (models.length === 0 ? (
          <p className="field-hint">The provider lists no models.</p>
        ) : (
          <ul className="model-list" aria-label="Available models">
            {models.map((model) => (
              <li key={model}>
                <button
                  type="button"
                  className="model-chip"
                  aria-pressed={form.model === model}
                  onClick={() => {
                    editForm({ model });
                    void save();
                  }}
                >
                  {model}
                </button>
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
