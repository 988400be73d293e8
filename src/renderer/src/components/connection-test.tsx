import { useSettingsStore } from '../stores/settings-store';

export function ConnectionTest(): React.JSX.Element {
  const { busy, test, testConnection } = useSettingsStore();
  return (
    <div className="connection-test">
      <button
        type="button"
        className="button primary"
        disabled={busy !== null}
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
