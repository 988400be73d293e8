import type { ProviderStatus } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';

/** A run can start: a model is chosen, and a key is stored where the provider needs one. */
export function providerReady(provider: ProviderStatus): boolean {
  return (provider.hasApiKey || !provider.needsApiKey) && provider.model !== '';
}

export function ProviderStatusLine(): React.JSX.Element {
  const provider = useAppStore((s) => s.provider);
  const openSettings = useAppStore((s) => s.openSettings);
  if (!provider) return <p className="provider-status muted">Checking provider…</p>;

  const ready = providerReady(provider);
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
