// `npm run preview`: the real window (the built renderer) in a local Chromium, talking to the real
// core — the main-process handlers, the agent, the permission engine, the sandbox — through the
// bridge the e2e tests use. For contributors without the Electron binary. Not the app: no
// preload, no Electron hardening, the key is kept in memory; the page says so in a badge.
// Bound to 127.0.0.1; the bridge takes only this page's origin and the random token in its address.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { version } from '../package.json';
import { requireBuiltRenderer, RENDERER_DIR } from '../e2e/support/app-page';
import { findChromium } from '../e2e/support/chromium';
import { startStaticServer } from '../e2e/support/static-server';
import { startTestBridge } from '../e2e/support/test-bridge-server';
import { CliFailure } from '../src/cli/cli-io';
import { chooseProvider, type ProviderChoice } from '../src/cli/provider-choice';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { PREVIEW_SCRIPT_PATH, previewAdmission, previewPageScript } from './preview-page';

const USAGE = `Usage: npm run preview -- [options]

Builds and opens Tandem's window in a local Chromium against the real core (a development
preview for contributors without the Electron binary; use npm start for the app).

Options:
  --folder DIR        what "Choose a folder" opens (default: asked here in the terminal)
  --base-url URL      the provider (default: the one stored in the window's Settings)
  --model NAME        the model (default: the stored one)
  --api-key-env VAR   environment variable with the API key (default: OPENAI_API_KEY)
  --data-dir DIR      sessions, rules and the journal (default: a temporary folder, removed at the end)
  --no-open           print the address instead of opening Chromium
  -h, --help          show this help
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      folder: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key-env': { type: 'string' },
      'data-dir': { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  requireBuiltRenderer();
  const provider = await previewProvider(values);
  const keepData = values['data-dir'] !== undefined;
  const dataDir = keepData
    ? resolve(values['data-dir'] ?? '')
    : await mkdtemp(resolve(tmpdir(), 'tandem-preview-'));
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  // Chromium's profile is thrown away with the preview, whatever --data-dir says.
  const profile = await mkdtemp(resolve(tmpdir(), 'tandem-preview-chromium-'));
  const folder = values.folder === undefined ? undefined : resolve(values.folder);

  const token = randomBytes(32).toString('base64url');
  let pageOrigin = '';
  const bridge = await startTestBridge({
    appVersion: `${version} (development preview)`,
    dataDir,
    realAgent: true,
    sandboxState: probeSandbox,
    admit: previewAdmission(() => pageOrigin, token),
    // Stand-ins for the native dialogs: the folder dialog and main's own confirmation.
    chooseFolder: async () => folder ?? askFolder(terminal),
    confirm: async (request) => {
      process.stdout.write(`\n${request.title}\n${request.message}\n${request.detail}\n`);
      const answer = await terminal.question(`${request.confirmLabel}? [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    },
    ...(provider
      ? {
          provider: {
            baseUrl: provider.baseUrl,
            model: provider.model,
            ...(provider.apiKey !== undefined ? { apiKey: provider.apiKey } : {}),
            ...(provider.timeouts !== undefined ? { timeouts: provider.timeouts } : {}),
          },
        }
      : {}),
  });
  const web = await startStaticServer(RENDERER_DIR, {
    connectSrc: bridge.url,
    inject: { path: PREVIEW_SCRIPT_PATH, script: previewPageScript(bridge.url) },
  });
  pageOrigin = web.origin;
  const address = `${web.url}#token=${token}`;

  process.stdout.write(
    [
      'Tandem development preview: the built window in a browser, on the real core. Not the app.',
      `  window:  ${address}`,
      `  folder:  ${folder ?? '"Choose a folder" asks here in the terminal'}`,
      `  model:   ${provider ? `${provider.model} at ${provider.baseUrl} (${provider.source === 'flags' ? 'from the flags' : "from the window's settings"}${provider.apiKey === undefined && provider.preset.needsApiKey ? '; no key in the environment: add one in Settings' : ''})` : 'none yet: choose one in Settings'}`,
      `  data:    ${dataDir}${keepData ? '' : ' (removed when the preview stops)'}`,
      '  The core listens on 127.0.0.1 only and answers only this page (its origin and the token in its address).',
      '  Ctrl-C stops it.',
      '',
    ].join('\n'),
  );

  let browser: ChildProcess | undefined;
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    browser?.kill();
    terminal.close();
    await web.close();
    await bridge.close();
    if (!keepData) await rm(dataDir, { recursive: true, force: true });
    await rm(profile, { recursive: true, force: true });
    process.exit(0);
  };
  // On a terminal, readline turns Ctrl-C into its own event.
  terminal.on('SIGINT', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (!values['no-open']) browser = openWindow(address, profile, () => void stop());
}

async function previewProvider(values: {
  readonly 'base-url'?: string;
  readonly model?: string;
  readonly 'api-key-env'?: string;
}): Promise<ProviderChoice | null> {
  try {
    return await chooseProvider({
      ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values['api-key-env'] !== undefined ? { apiKeyEnv: values['api-key-env'] } : {}),
      env: process.env,
      requireKey: false,
    });
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    // The window's Settings can still set up a provider (the key is then kept in memory).
    process.stdout.write(`Note: ${error.message}\n`);
    return null;
  }
}

async function askFolder(terminal: ReturnType<typeof createInterface>): Promise<string | null> {
  const answer = await terminal.question('\nFolder to open (the folder dialog; empty cancels): ');
  return answer.trim() === '' ? null : resolve(answer.trim());
}

/** Chromium as an app window with its own throwaway profile; the preview ends when it closes. */
function openWindow(
  address: string,
  profile: string,
  onClose: () => void,
): ChildProcess | undefined {
  let executable: string;
  try {
    executable = findChromium();
  } catch (error) {
    process.stdout.write(
      `${(error as Error).message}\nOpen the window's address above in a browser instead.\n`,
    );
    return undefined;
  }
  const args = [
    `--app=${address}`,
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-sync',
    // Chromium refuses to start as root with its sandbox on (containers, CI).
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  ];
  const child = spawn(executable, args, { stdio: 'ignore' });
  child.on('exit', (code) => {
    if (code === 0) {
      process.stdout.write('The window was closed; the preview stops.\n');
      onClose();
      return;
    }
    // No display, say: the core stays up for a browser the person opens themselves.
    process.stdout.write(
      `Chromium exited with code ${code ?? 'unknown'} (no display?). Open the window's address above in a browser; Ctrl-C stops the preview.\n`,
    );
  });
  return child;
}

void main().catch((error: unknown) => {
  process.stderr.write(`preview: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
