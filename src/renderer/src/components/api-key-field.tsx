import { useState } from 'react';
import { useSettingsStore } from '../stores/settings-store';

/**
 * Write-only: the window can send a key but never sees one. After saving, the input is emptied
 * and only "a key is stored" remains.
 */
export function ApiKeyField(): React.JSX.Element | null {
  const { settings, busy, setApiKey, clearApiKey } = useSettingsStore();
  const [draft, setDraft] = useState('');
  const [replacing, setReplacing] = useState(false);
  if (!settings) return null;

  const storage = settings.keyStorage;
  const showInput = !settings.hasApiKey || replacing;

  async function submit(): Promise<void> {
    if (draft.trim() === '') return;
    const ok = await setApiKey(draft);
    setDraft('');
    if (ok) setReplacing(false);
  }

  return (
    <div className="field api-key">
      <span className="field-label">
        API key{' '}
        {!settings.needsApiKey && <span className="muted">(optional for this provider)</span>}
      </span>
      {showInput ? (
        <form
          className="field-row"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <input
            type="password"
            aria-label="API key"
            value={draft}
            placeholder={settings.needsApiKey ? 'Paste your key' : 'Only if the server checks one'}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button
            type="submit"
            className="button primary"
            disabled={draft.trim() === '' || busy !== null}
          >
            Save key
          </button>
          {replacing && (
            <button
              type="button"
              className="button ghost"
              onClick={() => {
                setDraft('');
                setReplacing(false);
              }}
            >
              Cancel
            </button>
          )}
        </form>
      ) : (
        <div className="field-row key-stored">
          <span className="key-status">
            <span className="dot ok" aria-hidden="true" /> A key is stored
          </span>
          <span className="spacer" />
          <button type="button" className="button" onClick={() => setReplacing(true)}>
            Replace
          </button>
          <button
            type="button"
            className="button danger-outline"
            disabled={busy !== null}
            onClick={() => void clearApiKey()}
          >
            Remove
          </button>
        </div>
      )}
      {!settings.hasApiKey && settings.keyHeldFor !== null && (
        <p className="field-hint">
          The stored key belongs to <strong>{settings.keyHeldFor}</strong> and is not sent to this
          server. Enter this provider&apos;s key, or switch back.
        </p>
      )}
      <p className={`field-hint ${storage.persistent ? '' : 'warn-text'}`}>{storage.note}</p>
    </div>
  );
}
