// The first screen. Without a usable provider, setting one up is step 1 (a run needs it) and
// choosing a folder step 2; with one, choosing a folder is the one thing to do.
import { useAppStore } from '../stores/app-store';
import { ErrorBanner } from './error-banner';
import { LogoMark } from './logo-mark';
import { ProviderStatusLine, providerReady } from './provider-status-line';
import { RecentFolderList } from './recent-folder-list';

export function WelcomeView(): React.JSX.Element {
  const { busy, error, chooseFolder, dismissError, provider, openSettings } = useAppStore();
  // Until the status is known, the folder stays the main action (no flash of a setup step).
  const needsSetup = provider !== null && !providerReady(provider);

  return (
    <main className="welcome">
      <section className="welcome-card" aria-labelledby="welcome-title">
        <div className="welcome-brand">
          <LogoMark size={48} />
          <h1 id="welcome-title">Tandem</h1>
        </div>
        <p className="welcome-tagline">
          You and an agent, one folder. Reads flow; every change is shown to you first.
        </p>
        {needsSetup ? (
          <ol className="welcome-steps" aria-label="Getting started">
            <li className="welcome-step current">
              <span className="step-number">1</span>
              <div className="step-text">
                <strong>Set up a model provider</strong>
                <span className="muted">
                  No provider yet. Pick a hosted service or a local server (Ollama, LM Studio), add
                  its API key if it needs one, then choose a model.
                </span>
              </div>
              <button type="button" className="button primary" onClick={openSettings}>
                Set up a provider
              </button>
            </li>
            <li className="welcome-step">
              <span className="step-number">2</span>
              <div className="step-text">
                <strong>Choose a project folder</strong>
                <span className="muted">The agent works only inside it.</span>
              </div>
              <button
                type="button"
                className="button"
                onClick={() => void chooseFolder()}
                disabled={busy}
              >
                Choose a folder
              </button>
            </li>
          </ol>
        ) : (
          <button
            type="button"
            className="button primary large"
            onClick={() => void chooseFolder()}
            disabled={busy}
          >
            Choose a folder
          </button>
        )}
        {error && <ErrorBanner message={error} onDismiss={dismissError} />}
        <RecentFolderList />
        {!needsSetup && <ProviderStatusLine />}
      </section>
    </main>
  );
}
