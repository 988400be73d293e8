// The Settings view in real Chromium, over the real handlers: provider presets, the model list and
// the connection test against the scripted OpenAI-compatible server, the write-only API key, and
// the open project's mode, network setting, rules and grants.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantBook } from '../src/main/permissions/grant-book';
import { JsonFilePermissionsStore } from '../src/main/permissions/project-permissions-store';
import { MemorySecretStore } from '../src/main/store/secret-store';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../src/test-support/scripted-openai-server';
import { openAppPage, saveScreenshot } from './support/app-page';
import type { StaticServer } from './support/static-server';
import { startBrowserSetup, type BrowserSetup } from './support/browser-setup';
import { startTestBridge, type TestBridge } from './support/test-bridge-server';

const KEY = 'sk-e2e-4b1d9c7e2f0a6853';

let setup: BrowserSetup;
let browser: Browser;
let web: StaticServer;
let openai: ScriptedServer;
let bridge: TestBridge;
let root: string;
let project: string;
const secrets = new MemorySecretStore();
const grants = new GrantBook();
let permissions: JsonFilePermissionsStore;

beforeAll(async () => {
  setup = await startBrowserSetup('tandem-e2e-settings-', 'shop');
  ({ browser, web, root, project } = setup);
  const dataDir = join(root, 'data');
  permissions = new JsonFilePermissionsStore(dataDir);
  openai = await startScriptedOpenAIServer({ turns: [], model: 'scripted-model' });
  bridge = await startTestBridge({
    dataDir,
    chooseFolder: async () => project,
    secrets,
    grants,
    permissions,
    sandboxState: () => ({
      kind: 'none',
      available: false,
      description: 'Not sandboxed: bubblewrap (bwrap) is missing',
    }),
  });
});

afterAll(async () => {
  await bridge?.close();
  await openai?.close();
  await setup?.close();
});

/** Every text and form value in the page: the key must be in none of them. */
async function everythingShown(page: Page): Promise<string> {
  const values = await page
    .locator('input, textarea, select')
    .evaluateAll((els) => els.map((el) => (el as unknown as { value: string }).value));
  return [await page.content(), await page.locator('body').innerText(), ...values].join('\n');
}

describe('settings', () => {
  it('sets up a provider from a preset, loads models, tests the connection, and never shows the key', async () => {
    // Start with no provider, so a retry begins where the first attempt did.
    await secrets.clear();
    await rm(join(root, 'data', 'settings.json'), { force: true });
    const { page, problems } = await openAppPage(browser, web.url, bridge.url);
    await page.getByText('No provider yet').waitFor();
    await page.getByRole('button', { name: 'Set up a provider' }).click();
    await page.getByRole('heading', { name: 'Model provider' }).waitFor();

    const provider = page.getByRole('combobox', { name: 'Provider' });
    const baseUrl = page.getByRole('textbox', { name: 'Base URL' });
    await provider.selectOption({ label: 'LM Studio' });
    expect(await baseUrl.inputValue()).toBe('http://127.0.0.1:1234/v1');
    await page.getByText("start the server in LM Studio's Developer tab").waitFor();

    // Pointing it at another server makes it a custom endpoint.
    await baseUrl.fill(openai.baseUrl);
    expect(await provider.inputValue()).toBe('custom');

    const keyInput = page.getByLabel('API key', { exact: true });
    expect(await keyInput.getAttribute('type')).toBe('password');
    await keyInput.fill(KEY);
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByText('A key is stored').waitFor();
    expect(await page.getByLabel('API key', { exact: true }).count()).toBe(0);
    await page.getByText('kept in memory for this run only').waitFor();
    await expect(secrets.get()).resolves.toBe(KEY);

    await page.getByRole('button', { name: 'Load models' }).click();
    const models = page.getByRole('list', { name: 'Available models' });
    await models
      .getByRole('button', { name: 'scripted-model' })
      .click({ timeout: 15_000 })
      .catch(async (error: unknown) => {
        // Say what the person would have seen instead of the list.
        const shown = await page.locator('.settings-view, body').first().innerText();
        throw new Error(
          `the model list did not appear (${String(error)}); the page shows:\n${shown}`,
        );
      });
    expect(await page.getByRole('textbox', { name: 'Model' }).inputValue()).toBe('scripted-model');
    // The stored key went to the provider, from main.
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('"scripted-model" is available.').waitFor();
    expect(await page.locator('.test-result').innerText()).toMatch(
      /^OK: Connected to 127\.0\.0\.1:\d+/,
    );

    // The model's window and prices, stored by main for this model.
    await page.getByLabel('Context window (tokens)').fill('16000');
    await page.getByLabel('Input price ($ per million tokens)').fill('2.5');
    await page.getByLabel('Output price ($ per million tokens)').fill('10');
    await page.getByRole('button', { name: 'Save for scripted-model' }).click();
    await page.getByRole('button', { name: 'Saved for scripted-model' }).waitFor();
    const stored = JSON.parse(await readFile(join(root, 'data', 'settings.json'), 'utf8')) as {
      provider: { models?: unknown };
    };
    expect(stored.provider.models).toEqual({
      'scripted-model': {
        contextTokens: 16_000,
        prices: { inputPerMillion: 2.5, outputPerMillion: 10 },
      },
    });

    // Replace shows an empty field, never the stored value.
    await page.getByRole('button', { name: 'Replace' }).click();
    expect(await page.getByLabel('API key', { exact: true }).inputValue()).toBe('');
    expect(await everythingShown(page)).not.toContain(KEY);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await saveScreenshot(page, 'settings-provider.png');
    expect(await everythingShown(page)).not.toContain(KEY);

    // The key belongs to the server it was entered for: another preset does not get it.
    await provider.selectOption({ label: 'OpenAI' });
    await page.getByText('is not sent to this server').waitFor();
    expect(await page.getByLabel('API key', { exact: true }).inputValue()).toBe('');
    await baseUrl.fill(openai.baseUrl);
    await baseUrl.blur();
    await page.getByText('A key is stored').waitFor();

    // Done: the welcome screen reports the provider as ready.
    await page.getByRole('button', { name: /Done/ }).click();
    await page.getByText('Provider:').waitFor();
    expect(await page.locator('.provider-status').innerText()).toContain('scripted-model');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('refuses an invalid base URL with the reason', async () => {
    const { page } = await openAppPage(browser, web.url, bridge.url);
    await page.getByRole('button', { name: /Settings|Set up a provider/ }).click();
    const baseUrl = page.getByRole('textbox', { name: 'Base URL' });
    await baseUrl.fill('localhost:11434');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'must be an http:// or https:// URL' })
      .waitFor();
    await page.context().close();
  });

  it("edits the open project's mode, network, rules and grants", async () => {
    // A file from an older Tandem (version 1: rules were prefixes). It loads as widened rules;
    // one beyond today's limits is narrowed, and the list says so.
    const file = permissions.fileFor(project);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        mode: 'ask',
        network: 'ask',
        rules: [
          { rule: { kind: 'command', prefix: ['npm', 'test'] }, createdAt: Date.now() },
          { rule: { kind: 'command', prefix: ['git', 'push'] }, createdAt: Date.now() },
        ],
      }),
    );
    const grant = grants.add({
      folder: project,
      rule: { kind: 'tool', tool: 'fetch_url' },
      scope: { kind: 'until', expiresAt: Date.now() + 30 * 60_000 },
      effect: 'network',
    });
    grants.markUsed(grant.id);

    const { page, problems } = await openAppPage(browser, web.url, bridge.url);
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('heading', { name: 'shop' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Mode' }).inputValue()).toBe('ask');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Permissions for shop' }).waitFor();

    // No sandbox here: autonomous is offered but disabled, with the reason.
    expect(await page.getByRole('radio', { name: /Autonomous/ }).isDisabled()).toBe(true);
    await page.getByText('Needs a sandbox for commands, and this machine has none').waitFor();

    const rules = page.getByRole('list', { name: 'Rules' });
    const listed = await rules.innerText();
    expect(listed).toContain('npm test * (npm test with any further words for the script');
    expect(listed).toContain('git push exactly');
    expect(listed).toContain('Stored as git push *; narrowed to git push exactly because');
    const grantList = page.getByRole('list', { name: 'Grants' });
    expect(await grantList.innerText()).toMatch(/fetch_url[\s\S]*until .*last used (?!never)/);

    await page.getByRole('radio', { name: 'Off' }).click();
    await page.getByText('Network tools are refused.').waitFor();
    // Allowing the network asks in main's own dialog (the bridge answers for it): a no keeps Off
    // and the window says why.
    bridge.answerConfirmations(false);
    await page.getByRole('radio', { name: 'Allow', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText:
          "Allowing the network was not confirmed in Tandem's dialog; the network setting stays Off.",
      })
      .waitFor();
    expect(await page.getByRole('radio', { name: 'Off' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(bridge.confirmations.map((c) => c.message)).toEqual(['Allow the network for "shop"?']);
    bridge.answerConfirmations(true);
    // The radio follows main's answer, so it turns on once the mode is stored.
    await page.getByRole('radio', { name: /Read-only/ }).click();
    await expect.poll(() => page.getByRole('radio', { name: /Read-only/ }).isChecked()).toBe(true);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await saveScreenshot(page, 'settings-permissions.png');

    await rules.getByRole('button', { name: 'Delete' }).first().click();
    await expect.poll(() => rules.getByRole('button', { name: 'Delete' }).count()).toBe(1);
    await rules.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No rules yet.').waitFor();
    await grantList.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No active grants').waitFor();

    const stored = await permissions.load(project);
    expect(stored).toMatchObject({ mode: 'read-only', network: 'off', rules: [] });
    expect(grants.active(project, null)).toEqual([]);

    // Back in the session, the status bar shows the mode and switches it.
    await page.getByRole('button', { name: /Done/ }).click();
    const modeSwitch = page.getByRole('combobox', { name: 'Mode' });
    expect(await modeSwitch.inputValue()).toBe('read-only');
    expect(await page.getByRole('status').innerText()).toContain('Read-only');
    await modeSwitch.selectOption('auto-edit');
    await expect.poll(async () => (await permissions.load(project)).mode).toBe('auto-edit');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
