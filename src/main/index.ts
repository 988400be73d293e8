// The Electron shell: app lifecycle, the one window, its hardening, and wiring. Thin on purpose:
// everything it calls runs under plain Node and is tested there.
import { tandemFolders } from './store/tandem-folders';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BrowserWindow, app, dialog, session, shell } from 'electron';
import { createHandlers, type TandemBackend } from './ipc/create-handlers';
import { createElectronConfirm } from './ipc/electron-confirm';
import { bindElectronIpc } from './ipc/electron-ipc';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY } from './content-security-policy';
import { McpHost, storedKeySecrets } from './mcp/mcp-host';
import { JsonFileMcpSettingsStore } from './mcp/mcp-stores';
import { GrantBook } from './permissions/grant-book';
import { forgetSecretVariables } from './shell/command-env';
import { probeSandbox } from './shell/sandbox-probe';
import { shellSessions } from './shell/shell-sessions';
import { createAgentRunControllerFactory } from './ipc/agent-run-controller';
import { createElectronSecretStore } from './store/electron-secret-store';
import { createElectronPermissionsStore } from './store/electron-permissions-store';
import { createElectronSettingsStore } from './store/electron-settings-store';
import { loadWindowState } from './store/electron-window-state';

// Keys the person exported are not Tandem's to pass on: no child process inherits them.
forgetSecretVariables(process.env);

// Lets tests and portable setups keep all state in one folder.
if (process.env.TANDEM_USER_DATA_DIR) app.setPath('userData', process.env.TANDEM_USER_DATA_DIR);

const devServerUrl = (!app.isPackaged && process.env.ELECTRON_RENDERER_URL) || undefined;
const appUrl = devServerUrl ?? pathToFileURL(join(__dirname, '../renderer/index.html')).href;

/** How long quitting waits for the run to stop before it goes anyway. */
const QUIT_WAIT_MS = 5000;

let mainWindow: BrowserWindow | null = null;
let backend: TandemBackend | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Quit waits for the run to stop and its transcript to close, but never longer than this.
  let quitting: 'no' | 'disposing' | 'done' = 'no';
  app.on('before-quit', (event) => {
    if (quitting === 'done' || !backend) return;
    event.preventDefault();
    if (quitting === 'disposing') return;
    quitting = 'disposing';
    const disposed = backend.dispose().catch((error: unknown) => {
      console.error('tandem: closing the open folder on quit failed:', error);
    });
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, QUIT_WAIT_MS).unref());
    void Promise.race([disposed, timeout]).then(() => {
      quitting = 'done';
      app.quit();
    });
  });
  app.whenReady().then(start, (error: unknown) => {
    dialog.showErrorBox('Tandem could not start', String(error));
    app.quit();
  });
}

function start(): void {
  hardenSession();
  const dataDir = app.getPath('userData');
  // One instance of each, shared by the IPC handlers and (through runControllerFactory) the agent.
  const settings = createElectronSettingsStore();
  const secrets = createElectronSecretStore();
  const permissions = createElectronPermissionsStore();
  const grants = new GrantBook();
  // The open folder's MCP servers: the handlers start and stop them, the agent uses their tools.
  const mcp = new McpHost({
    store: new JsonFileMcpSettingsStore(dataDir),
    sandbox: probeSandbox,
    // The same walls as commands: Tandem's data hidden, the stored key in no environment.
    dataFolders: tandemFolders(dataDir),
    childSecrets: storedKeySecrets(secrets),
  });
  backend = createHandlers({
    appName: 'Tandem',
    appVersion: app.getVersion(),
    dataDir,
    chooseFolder: async () => {
      const options = {
        title: 'Choose a project folder',
        properties: ['openDirectory' as const, 'createDirectory' as const],
      };
      const result = mainWindow
        ? await dialog.showOpenDialog(mainWindow, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    confirm: createElectronConfirm(() => mainWindow),
    sandboxState: probeSandbox,
    settings,
    secrets,
    permissions,
    grants,
    mcp,
    runControllerFactory: createAgentRunControllerFactory({
      dataDir,
      settings,
      secrets,
      permissions,
      grants,
      sandbox: probeSandbox,
      shellSessions,
      log: (line) => console.warn(line),
      mcp,
    }),
  });
  bindElectronIpc({
    backend,
    trusted: () =>
      mainWindow && !mainWindow.isDestroyed()
        ? { webContents: mainWindow.webContents, appUrl }
        : null,
  });
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

function createWindow(): void {
  const state = loadWindowState();
  const window = new BrowserWindow({
    ...state.initial,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Tandem',
    backgroundColor: '#f7f6f3',
    icon: join(__dirname, '../../resources/icon.png'),
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
      // A middle click on a link would go past the will-navigate guard as a new window request.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  state.track(window);
  window.once('ready-to-show', () => {
    if (state.maximized) window.maximize();
    window.show();
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
  void window.loadURL(appUrl);
}

/** No permissions for anyone (camera, notifications, …), and our CSP on every page we serve. */
function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    const policy = devServerUrl ? DEV_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY;
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    });
  });
}

/** The window never navigates away, opens windows or embeds webviews. */
function hardenWebContents(contents: Electron.WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // A link in the agent's text opens in the person's browser, never inside Tandem.
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}
