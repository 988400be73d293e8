import { useSettingsStore } from '../stores/settings-store';

export function ConnectionTest(): React.JSX.Element {
  const { busy, test, testConnection } = useSettingsStore();
  return (
    <div className="connection-test">
      <button
        type="button"
        className="button primary"
        // Not disabled by a save in flight: the blur of the model field starts one on mouse
        // down, and a button disabled then would swallow the click. The test saves first anyway.
        disabled={busy === 'testing'}
        onClick={() => void testConnection()}
      >
        {busy === 'testing' ? 'Testing…' : 'Test connection'}
      </button>
      {test && (
        <p className={`test-result ${test.ok ? 'ok' : 'failed'}`} aria-live="polite">
          <span className={`dot ${test.ok ? 'ok' : 'warn'}`} aria-hidden="true" />
          <span>
            <strong>{test.ok ? 'OK' : test.modelMissing ? 'Model not listed' : 'Failed'}:</strong>{' '}
            {test.message}
          </span>
        </p>
      )}
    </div>
  );
}
