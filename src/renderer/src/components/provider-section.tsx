import { PROVIDER_PRESETS, presetById } from '../../../shared/provider-presets';
import { useSettingsStore } from '../stores/settings-store';
import { ApiKeyField } from './api-key-field';
import { ConnectionTest } from './connection-test';
import { ErrorBanner } from './error-banner';
import { ModelPicker } from './model-picker';
import { ModelSettingsFields } from './model-settings-fields';
import { TimeoutFields } from './timeout-fields';

export function ProviderSection(): React.JSX.Element {
  const { settings, error, dismissError } = useSettingsStore();

  return (
    <section className="settings-card" aria-labelledby="provider-title">
      <h2 id="provider-title">Model provider</h2>
      <p className="muted">Any OpenAI-compatible endpoint: a hosted service or a local server.</p>
      {settings === null ? (
        error ? (
          <ErrorBanner message={error} onDismiss={dismissError} />
        ) : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <ProviderForm />
      )}
    </section>
  );
}

/** Shown once the stored settings are in, so nothing typed is overwritten by the load. */
function ProviderForm(): React.JSX.Element {
  const { settings, form, busy, error, pickPreset, editForm, save, dismissError } =
    useSettingsStore();
  const preset = presetById(form.presetId);
  const dirty =
    settings !== null &&
    (settings.baseUrl !== form.baseUrl.trim() ||
      settings.model !== form.model.trim() ||
      settings.presetId !== form.presetId);

  return (
    <>
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label className="field">
          <span className="field-label">Provider</span>
          <select
            value={form.presetId}
            disabled={busy !== null}
            onChange={(event) => void pickPreset(event.target.value as typeof form.presetId)}
          >
            {PROVIDER_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
          <span className="field-hint">{preset.hint}</span>
        </label>
        <label className="field">
          <span className="field-label">Base URL</span>
          <input
            type="url"
            value={form.baseUrl}
            placeholder="https://host/v1"
            spellCheck={false}
            onChange={(event) => editForm({ baseUrl: event.target.value })}
            onBlur={() => dirty && void save()}
          />
        </label>
      </form>
      {/* The key comes before the model: listing the models needs it. */}
      <ApiKeyField />
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <ModelPicker onCommit={() => dirty && void save()} />
        <div className="settings-actions">
          <button type="submit" className="button" disabled={!dirty || busy !== null}>
            {busy === 'saving' ? 'Saving…' : dirty ? 'Save' : 'Saved'}
          </button>
        </div>
      </form>
      {error && <ErrorBanner message={error} onDismiss={dismissError} />}
      <ConnectionTest />
      <TimeoutFields />
      <ModelSettingsFields />
    </>
  );
}
