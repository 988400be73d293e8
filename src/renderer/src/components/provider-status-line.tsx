import { useAppStore } from '../stores/app-store';

export function ProviderStatusLine(): React.JSX.Element {
  const provider = useAppStore((s) => s.provider);
  const openSettings = useAppStore((s) => s.openSettings);
  if (!provider) return <p className="provider-status muted">Checking provider…</p>;

  const ready = (provider.hasApiKey || !provider.needsApiKey) && provider.model !== '';
  return (
    <p className="provider-status" data-ready={ready}>
      <span className={`dot ${ready ? 'ok' : 'warn'}`} aria-hidden="true" />
      {ready ? (
        <span>
          Provider: <strong>{provider.model}</strong> at {hostOf(provider.baseUrl)}
        </span>
      ) : (
        <span>No provider yet.</span>
      )}
      <button type="button" className="link-button" onClick={openSettings}>
        {ready ? 'Settings' : 'Set up a provider'}
      </button>
    </p>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
