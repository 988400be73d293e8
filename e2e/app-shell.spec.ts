// The built renderer in real Chromium, talking to the real main-process handlers over the bridge.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppPage, saveScreenshot } from './support/app-page';
import { SCRIPTED_COMMAND, ScriptedRunController } from './support/scripted-run-controller';
import type { StaticServer } from './support/static-server';
import { startBrowserSetup, type BrowserSetup } from './support/browser-setup';
import { startTestBridge, type TestBridge } from './support/test-bridge-server';

let setup: BrowserSetup;
let browser: Browser;
let web: StaticServer;
let root: string;
let project: string;

beforeAll(async () => {
  setup = await startBrowserSetup('tandem-e2e-', 'demo-project');
  ({ browser, web, root, project } = setup);
});

afterAll(() => setup?.close());

describe('app shell without a provider', () => {
  let bridge: TestBridge;
  let chosen: () => string = () => project;

  beforeAll(async () => {
    bridge = await startTestBridge({
      dataDir: join(root, 'data-1'),
      chooseFolder: async () => chosen(),
    });
  });
  afterAll(() => bridge?.close());

  it('loads the built renderer and shows the empty state, with no CSP or script errors', async () => {
    const { page, problems } = await openAppPage(browser, web.url, bridge.url);
    await page.getByRole('heading', { name: 'Tandem' }).waitFor();
    const text = await page.locator('main').innerText();
    expect(text).toContain(
      'You and an agent, one folder. Reads flow; every change is shown to you first.',
    );
    expect(await page.getByRole('button', { name: 'Choose a folder' }).isEnabled()).toBe(true);
    await page.getByText('No provider yet').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('round-trips window.tandem.ping to the real handler in Node', async () => {
    const { page } = await openAppPage(browser, web.url, bridge.url);
    const reply = await page.evaluate(() => window.tandem.ping('x'));
    expect(reply).toBe('pong: x');
    await page.context().close();
  });

  it("rejects an invalid payload with main's validation message", async () => {
    const { page } = await openAppPage(browser, web.url, bridge.url);
    const outcome = await page.evaluate(() =>
      window.tandem.openFolder(42 as unknown as string).then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
    );
    expect(outcome).toMatch(
      /^tandem\.openFolder was called with invalid arguments: argument 1: .*expected string/,
    );
    await page.context().close();
  });

  it('refuses folders the person did not choose, whatever the page asks main to open', async () => {
    const { page } = await openAppPage(browser, web.url, bridge.url);
    const refusals = await page.evaluate(
      (folders) =>
        Promise.all(
          folders.map((folder) =>
            window.tandem.openFolder(folder).then(
              () => 'opened',
              (error: Error) => error.message,
            ),
          ),
        ),
      ['/', '/etc', project],
    );
    expect(refusals[0]).toMatch(/^Cannot open "\/": it is the root of a file system\./);
    expect(refusals[1]).toMatch(/^Cannot open "\/etc": \/etc is a system folder\./);
    expect(refusals[2]).toContain('Tandem opens only folders you chose in its folder dialog');
    expect(await page.evaluate(() => window.tandem.recentFolders())).toEqual([]);
    await page.context().close();
  });

  it('opens the chosen folder, says why a run cannot start, and lists the folder as recent', async () => {
    const { page, problems } = await openAppPage(browser, web.url, bridge.url);
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('heading', { name: 'demo-project' }).waitFor();
    expect(await page.getByText(project, { exact: true }).count()).toBe(1);

    await page.getByRole('textbox', { name: 'Task' }).fill('Add a README');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('alert').filter({ hasText: 'No provider configured' }).waitFor();
    await saveScreenshot(page, 'session-no-provider.png');

    // Back on the welcome screen, the folder is listed and opens with one click.
    await page.getByRole('button', { name: 'Change folder' }).click();
    await page.getByRole('heading', { name: 'Recent folders' }).waitFor();
    await saveScreenshot(page, 'welcome.png');
    await page.getByRole('button', { name: /demo-project/ }).click();
    await page.getByRole('heading', { name: 'demo-project' }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows why a chosen folder cannot be opened', async () => {
    const file = join(root, 'notes.txt');
    await writeFile(file, 'not a folder');
    chosen = () => file;
    try {
      const { page } = await openAppPage(browser, web.url, bridge.url);
      await page.getByRole('button', { name: 'Choose a folder' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toContain(
        `Cannot open "${file}": it is a file, not a folder.`,
      );
      await page.context().close();
    } finally {
      chosen = () => project;
    }
  });
});

describe('session view with a run', () => {
  let bridge: TestBridge;
  const controllers: ScriptedRunController[] = [];

  beforeAll(async () => {
    bridge = await startTestBridge({
      dataDir: join(root, 'data-2'),
      chooseFolder: async () => project,
      provider: {
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4.1-mini',
        apiKey: 'sk-test-not-a-real-key',
      },
      sandboxState: () => ({
        kind: 'bwrap',
        available: true,
        description: 'bubblewrap: system read-only, project read-write, network off',
      }),
      runControllerFactory: (workspace) => {
        const controller = new ScriptedRunController(workspace.folder);
        controllers.push(controller);
        return controller;
      },
    });
  });
  afterAll(() => bridge?.close());

  it('streams the trace, shows the approval card and answers it from the keyboard', async () => {
    const { page, problems } = await openAppPage(browser, web.url, bridge.url);
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('heading', { name: 'demo-project' }).waitFor();

    await page.getByRole('textbox', { name: 'Task' }).fill('Run the tests and tell me what fails');
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');

    const card = page.getByRole('article', { name: 'Approval for shell' });
    await card.waitFor();
    expect(await card.innerText()).toContain(SCRIPTED_COMMAND);
    expect(await card.innerText()).toContain('npm test runs project code');
    expect(await page.locator('.assistant-text strong').first().innerText()).toBe('package.json');
    expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await saveScreenshot(page, 'session-approval.png');

    await page.keyboard.press('y');
    await card.getByText('Allowed once').waitFor();
    await page.getByText('4 tests').waitFor();
    expect(controllers.at(-1)?.answers).toEqual([{ kind: 'allow-once' }]);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await page.getByRole('status').innerText()).toContain('1,280 tokens');
    // How full the model's window is, with where the figure comes from on hover.
    const context = page.locator('.context-use');
    expect(await context.innerText()).toBe('Context: 1,180 of 128,000 tokens (1 %)');
    expect(await context.getAttribute('title')).toBe(
      "Window 128,000 tokens (Tandem's table of known models), 16,384 of them kept for the answer; counted with o200k_base",
    );
    // Compact asks main; with nothing older to summarise it says so where actions report.
    await page.getByRole('button', { name: 'Compact' }).click();
    await page.getByText('Nothing to compact yet').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('denies with a note and can stop a run', async () => {
    const { page } = await openAppPage(browser, web.url, bridge.url);
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('textbox', { name: 'Task' }).fill('Run the tests');
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.getByRole('article', { name: 'Approval for shell' });
    await card.getByRole('button', { name: /Deny with note/ }).click();
    await page.getByRole('textbox', { name: 'Note to the agent' }).fill('Run only the unit tests');
    await card.getByRole('button', { name: 'Deny with note' }).click();
    await card.getByText('Denied with a note').waitFor();
    expect(controllers.at(-1)?.answers.at(-1)).toEqual({
      kind: 'deny-with-note',
      note: 'Run only the unit tests',
    });

    await page.getByRole('textbox', { name: 'Task' }).fill('Try again');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('article', { name: 'Approval for shell' }).nth(1).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Run stopped.').waitFor();
    await page.context().close();
  });
});
