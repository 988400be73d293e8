// The screenshots in docs/screenshots, written by this run: the real window in Chromium with the
// real agent and the scripted model, each view in the light and the dark theme at 1280 and 900
// px. The README shows two of them. Each view is also checked to be what its name says.
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppPage } from './support/app-page';
import {
  runFinished,
  sendTask,
  startAgentWindow,
  type AgentWindow,
  type Scripts,
} from './support/agent-window';
import { startTestBridge, type TestBridge } from './support/test-bridge-server';

const OUT = resolve(__dirname, '../docs/screenshots');
const THEMES = ['light', 'dark'] as const;
const WIDTHS = [1280, 900] as const;

const SCRIPTS: Scripts = {
  'Fix the total in sum.js': [
    {
      toolCalls: [
        { name: 'read_file', arguments: { path: 'sum.js' } },
        { name: 'list_dir', arguments: { path: '.' } },
      ],
    },
    {
      text: 'The loop starts at 1, so the first item is never added. I will fix the start index.',
      toolCalls: [
        {
          name: 'edit_file',
          arguments: { path: 'sum.js', old_text: 'let i = 1', new_text: 'let i = 0' },
        },
      ],
    },
    {
      toolCalls: [{ name: 'shell', arguments: { command: 'node --test sum.test.js' } }],
    },
    {
      text: 'Fixed: `sum([1, 2, 3])` is now **6**.\n\n| Case | Before | After |\n|---|---|---|\n| `[1, 2, 3]` | 5 | 6 |\n| `[]` | 0 | 0 |',
    },
  ],
  'Tidy up the project': [
    {
      toolCalls: [
        {
          name: 'write_file',
          arguments: { path: 'README.md', content: '# Sum\n\nAdds numbers.\n\n    node sum.js\n' },
        },
        {
          name: 'edit_file',
          arguments: { path: 'sum.js', old_text: 'module.exports', new_text: 'exports.sum' },
        },
        { name: 'shell', arguments: { command: 'npm pkg set scripts.test="node --test"' } },
      ],
    },
    { text: 'Tidied up: a README, a named export, and a test script.' },
  ],
  'Say hello': [{ text: 'Hello! What shall we work on?' }],
};

const SUM_JS = `function sum(items) {
  let total = 0;
  for (let i = 1; i < items.length; i++) total += items[i];
  return total;
}
module.exports = sum;
`;
const SUM_TEST = `const test = require('node:test');
const assert = require('node:assert');
const sum = require('./sum.js');
test('adds', () => assert.strictEqual(sum([1, 2, 3]), 6));
`;

let app: AgentWindow;
let bare: TestBridge;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  app = await startAgentWindow('shots', SCRIPTS);
  await writeFile(join(app.project, 'sum.js'), SUM_JS);
  await writeFile(join(app.project, 'sum.test.js'), SUM_TEST);
  await writeFile(join(app.project, 'package.json'), '{ "name": "sum", "version": "1.0.0" }\n');
  bare = await startTestBridge({
    dataDir: join(app.setup.root, 'data-bare'),
    chooseFolder: async () => app.project,
  });
});

afterAll(async () => {
  await bare?.close();
  await app?.close();
});

/** Writes `<name>-<theme>-<width>.png` for every theme and width, then goes back to 1280 light. */
async function shoot(page: Page, name: string, before?: (width: number) => Promise<void>) {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    // The renderer follows the OS on its media change event (the next frame): wait for it.
    await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await before?.(width);
      // Hover and focus rings are not part of the picture.
      await page.mouse.move(0, 799);
      await page.screenshot({ path: join(OUT, `${name}-${theme}-${width}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The narrow layout opens the sidebar over the trace only on request. */
async function sidebarOpen(page: Page, width: number): Promise<void> {
  const toggle = page.getByRole('button', { name: /sessions$/ });
  const open = (await toggle.getAttribute('aria-expanded')) === 'true';
  const wanted = width >= 1100;
  if (open !== wanted) await toggle.click();
}

describe('screenshots for the docs', () => {
  it('welcome, before any provider is set up', async () => {
    const { page } = await openAppPage(app.setup.browser, app.setup.web.url, bare.url);
    await page.getByRole('list', { name: 'Getting started' }).waitFor();
    await shoot(page, 'welcome');
    await page.context().close();
  });

  it('a session: an edit card, a command card, a stack, the changes panel and the sidebar', async () => {
    const { page, problems } = await app.openProject(1280);
    await page.setViewportSize({ width: 1280, height: 800 });

    await sendTask(page, 'Fix the total in sum.js');
    const card = page.locator('.approval-panel.pending');
    await card.locator('.diff-view').waitFor();
    await shoot(page, 'edit-card', (width) => sidebarOpen(page, width));
    await card.getByRole('button', { name: /^Allow once/ }).click();

    await page.locator('.approval-panel.pending pre.command').waitFor();
    await shoot(page, 'command-card', (width) => sidebarOpen(page, width));
    await page
      .locator('.approval-panel.pending')
      .getByRole('button', { name: /^Allow once/ })
      .click();
    await page.getByText('Fixed:').waitFor();
    await runFinished(page);

    await sendTask(page, 'Tidy up the project');
    await page.getByRole('region', { name: 'Approvals of one step' }).waitFor();
    await expect.poll(() => page.locator('.approval-panel.pending').count()).toBe(3);
    await page.getByRole('region', { name: 'Approvals of one step' }).scrollIntoViewIfNeeded();
    await shoot(page, 'stack', (width) => sidebarOpen(page, width));
    await page.keyboard.press('Shift+Y');
    await page.getByText('Tidied up:').waitFor();
    await runFinished(page);

    // Back to the end of the trace (the stack was scrolled into view above).
    await page.keyboard.press('End');
    await page.getByRole('button', { name: /^Changes/ }).click();
    const panel = page.getByRole('complementary', { name: 'Changes in this session' });
    await expect.poll(() => panel.locator('.changed-file').count()).toBe(3);
    await shoot(page, 'changes-panel', (width) => sidebarOpen(page, width));
    await panel.getByRole('button', { name: 'Close' }).click();

    // A second, short session; then back to the first, whose whole trace comes back.
    await sidebarOpen(page, 1280);
    const sidebar = page.getByRole('navigation', { name: 'Sessions' });
    await sidebar.getByRole('button', { name: 'New session' }).click();
    await sendTask(page, 'Say hello');
    await page.getByText('Hello! What shall we work on?').waitFor();
    await runFinished(page);
    await expect.poll(() => sidebar.locator('.session-row').count()).toBe(2);
    await sidebar.getByRole('button', { name: /^Fix the total in sum\.js/ }).click();
    await page.getByText('Tidied up:').waitFor();
    await page.keyboard.press('End');
    await shoot(page, 'sessions-sidebar', async (width) => {
      const toggle = page.getByRole('button', { name: /sessions$/ });
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      void width;
    });

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Model provider' }).waitFor();
    await shoot(page, 'settings');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
