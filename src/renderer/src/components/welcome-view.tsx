import { useAppStore } from '../stores/app-store';
import { ErrorBanner } from './error-banner';
import { LogoMark } from './logo-mark';
import { ProviderStatusLine } from './provider-status-line';
import { RecentFolderList } from './recent-folder-list';

export function WelcomeView(): React.JSX.Element {
  const { busy, error, chooseFolder, dismissError } = useAppStore();

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
        <button
          type="button"
          className="button primary large"
          onClick={() => void chooseFolder()}
          disabled={busy}
        >
          Choose a folder
        </button>
        {error && <ErrorBanner message={error} onDismiss={dismissError} />}
        <RecentFolderList />
        <ProviderStatusLine />
      </section>
    </main>
  );
}
