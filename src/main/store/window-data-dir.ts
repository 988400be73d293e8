// Where the window keeps its data (Electron's `userData`), found without Electron, so the CLI can
// read the provider the window stored. Electron makes userData `<appData>/<app name>`: appData is
// %APPDATA% on Windows, ~/Library/Application Support on macOS and $XDG_CONFIG_HOME (else
// ~/.config) on Linux; the app name is package.json's `productName`, else its `name`. Tandem's
// package.json has no productName and electron-builder does not add one (its `productName` names
// the installers only), so the folder is `tandem` in development and when packaged.
// src/main/index.ts moves userData to $TANDEM_USER_DATA_DIR when that is set.
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** Electron's app name for Tandem: package.json's productName ?? name (checked by a test). */
export const WINDOW_APP_NAME = 'tandem';

export interface WindowDataDirContext {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The person's home folder; os.homedir() when absent. */
  readonly home?: string;
}

/** Electron's `app.getPath('appData')` for this platform and environment. */
export function electronAppDataDir(ctx: WindowDataDirContext): string {
  const home = ctx.home ?? homedir();
  switch (ctx.platform) {
    case 'win32':
      return ctx.env.APPDATA || win32.join(home, 'AppData', 'Roaming');
    case 'darwin':
      return posix.join(home, 'Library', 'Application Support');
    default:
      // Electron takes XDG_CONFIG_HOME only when it is absolute, as the XDG spec says.
      return ctx.env.XDG_CONFIG_HOME && posix.isAbsolute(ctx.env.XDG_CONFIG_HOME)
        ? ctx.env.XDG_CONFIG_HOME
        : posix.join(home, '.config');
  }
}

/** The folder the window keeps settings.json, permissions.json and its projects in. */
export function windowDataDir(ctx: WindowDataDirContext): string {
  const override = ctx.env.TANDEM_USER_DATA_DIR;
  if (override) return override;
  const join = ctx.platform === 'win32' ? win32.join : posix.join;
  return join(electronAppDataDir(ctx), WINDOW_APP_NAME);
}
