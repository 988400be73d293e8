// Issue 13 item 10 in real Chromium: GitHub-flavoured markdown and highlighted code with a Copy
// button in answers, a dark theme that follows the OS with a switch in Settings, the API key
// asked before the model, and provider setup as the welcome screen's first step.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { openAppPage } from './support/app-page';
import {
  runFinished,
  sendTask,
  startAgentWindow,
  type AgentWindow,
  type Scripts,
} from './support/agent-window';
import { startTestBridge, type TestBridge } from './support/test-bridge-server';

const CODE = 'const total: number = items.length;';
const ANSWER = [
  'Here is the plan:',
  '',
  '| Step | Owner |',
  '|------|-------|',
  '| Tests | agent |',
  '',
  '- [x] read the code',
  '- [ ] fix the bug',
  '',
  '```ts',
  CODE,
  '```',
].join('\n');

const SCRIPTS: Scripts = {
  'Show the plan': [{ text: ANSWER }],
  'Count the words': [
    { text: 'There are 12 words.', usage: { prompt_tokens: 3_000, completion_tokens: 200 } },
  ],
};

let app: AgentWindow;

beforeAll(async () => {
  app = await startAgentWindow('polish', SCRIPTS);
});

afterAll(() => app?.close());

async function background(page: Page): Promise<string> {
  return page.locator('body').evaluate((body) => {
    const view = body.ownerDocument.defaultView!;
    return view.getComputedStyle(body.ownerDocument.documentElement).getPropertyValue('--bg');
  });
}

describe('answers', () => {
  it('draws tables, task lists and highlighted code with a working Copy button', async () => {
    const { page, problems } = await app.openProject();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await sendTask(page, 'Show the plan');
    await runFinished(page);
    const answer = page.locator('.assistant-text');
    expect(await answer.locator('table th').allInnerTexts()).toEqual(['Step', 'Owner']);
    expect(await answer.locator('input[type=checkbox]').count()).toBe(2);
    expect(await answer.locator('input[type=checkbox]').first().isChecked()).toBe(true);
    const block = answer.locator('.code-block');
    expect(await block.locator('.code-language').innerText()).toBe('ts');
    expect(await block.locator('.hljs-keyword').first().innerText()).toBe('const');
    expect(await block.locator('code').innerText()).toBe(CODE);
    await block.getByRole('button', { name: 'Copy' }).click();
    await block.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(CODE);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the status bar', () => {
  it('shows the run state, model, mode, sandbox and the context the conversation fills', async () => {
    const { page, problems } = await app.openProject(900);
    await sendTask(page, 'Count the words');
    await page.getByText('There are 12 words.').waitFor();
    await runFinished(page);
    const status = page.getByRole('status');
    const text = await status.innerText();
    expect(text).toContain('Idle');
    expect(text).toContain('Model: scripted-model');
    const sandbox = await probeSandbox();
    expect(text).toContain(
      sandbox.available ? `Sandbox: ${sandbox.kind}` : 'Commands are not sandboxed',
    );
    // How much of the model's window the last request took, as Tandem counted it (a model it
    // does not know gets a cautious 32k window), the session's tokens, and Compact.
    // At 900 px the window's size is left out of the figure; its label keeps all of it.
    expect(text).toMatch(/Context: [\d,]+ \(\d+ %\)/);
    expect(await status.locator('.context-use').getAttribute('aria-label')).toMatch(
      /^Context: [\d,]+ of 32,768 tokens \(\d+ %\)$/,
    );
    expect(text).toMatch(/\n[\d,]+ tokens$/);
    expect(await status.getByRole('button', { name: 'Compact' }).isEnabled()).toBe(true);
    const mode = status.getByRole('combobox', { name: 'Mode' });
    expect(await mode.inputValue()).toBe('ask');
    // Every item is whole in the bar at 900 px: nothing cut off or pushed out.
    const bar = (await status.boundingBox())!;
    for (const item of await status.locator('.status-item').all()) {
      const box = (await item.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
      expect(await item.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('the theme', () => {
  it('follows the OS, and the Settings switch overrides it and is kept', async () => {
    const { page } = await app.openProject();
    // The renderer follows the OS on its media change event, dispatched on the next frame.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await background(page)).trim()).toBe('#15181d');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(async () => (await background(page)).trim()).toBe('#f7f6f3');

    await page.getByRole('button', { name: 'Settings' }).click();
    const appearance = page.getByRole('region', { name: 'Appearance' });
    await appearance.getByText('Dark', { exact: true }).click();
    expect((await background(page)).trim()).toBe('#15181d');
    await page.reload();
    await page.getByRole('button', { name: 'Choose a folder' }).waitFor();
    expect((await background(page)).trim()).toBe('#15181d');

    // "Light" holds against a dark OS; "As the system" follows it again.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('button', { name: 'Settings' }).click();
    await appearance.getByText('Light', { exact: true }).click();
    expect((await background(page)).trim()).toBe('#f7f6f3');
    await appearance.getByText('As the system', { exact: true }).click();
    expect((await background(page)).trim()).toBe('#15181d');
    await page.context().close();
  });
});

describe('first steps without a provider', () => {
  let bridge: TestBridge;

  beforeAll(async () => {
    bridge = await startTestBridge({
      dataDir: `${app.setup.root}/data-empty`,
      chooseFolder: async () => app.project,
    });
  });
  afterAll(() => bridge?.close());

  it('makes provider setup step 1, and Settings asks for the key before the model', async () => {
    const { page, problems } = await openAppPage(app.setup.browser, app.setup.web.url, bridge.url);
    const steps = page.getByRole('list', { name: 'Getting started' });
    await steps.waitFor();
    const items = steps.getByRole('listitem');
    expect(await items.first().innerText()).toContain('Set up a model provider');
    expect(await items.first().getAttribute('class')).toContain('current');
    expect(await items.nth(1).innerText()).toContain('Choose a project folder');

    await steps.getByRole('button', { name: 'Set up a provider' }).click();
    await page.getByRole('heading', { name: 'Model provider' }).waitFor();
    const key = await page.getByLabel('API key', { exact: true }).boundingBox();
    const model = await page.getByRole('textbox', { name: 'Model' }).boundingBox();
    const url = await page.getByRole('textbox', { name: 'Base URL' }).boundingBox();
    expect(url!.y).toBeLessThan(key!.y);
    expect(key!.y).toBeLessThan(model!.y);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
