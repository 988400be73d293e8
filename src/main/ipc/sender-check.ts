// Which IPC senders main trusts: only the main frame of our own window, showing our own page.
// Pure so it is tested without Electron; src/main/ipc/electron-ipc.ts feeds it the facts.

export interface SenderFacts {
  readonly webContentsId: number;
  /** URL of the frame that sent the message; null when Electron no longer knows it. */
  readonly frameUrl: string | null;
  readonly isMainFrame: boolean;
}

export interface TrustedWindow {
  readonly webContentsId: number;
  /** The page we loaded: a file:// URL in production, the dev server URL in development. */
  readonly appUrl: string;
}

export function isTrustedSender(sender: SenderFacts, trusted: TrustedWindow | null): boolean {
  if (!trusted) return false;
  if (sender.webContentsId !== trusted.webContentsId) return false;
  if (!sender.isMainFrame || sender.frameUrl === null) return false;
  return isAppUrl(sender.frameUrl, trusted.appUrl);
}

/** file:// pages must be exactly our index file; http(s) pages (dev) must share the origin. */
export function isAppUrl(url: string, appUrl: string): boolean {
  let candidate: URL;
  let app: URL;
  try {
    candidate = new URL(url);
    app = new URL(appUrl);
  } catch {
    return false;
  }
  if (app.protocol === 'file:') {
    return (
      candidate.protocol === 'file:' &&
      candidate.host === app.host &&
      candidate.pathname === app.pathname
    );
  }
  if (app.protocol === 'http:' || app.protocol === 'https:') {
    return candidate.origin === app.origin;
  }
  return false;
}
