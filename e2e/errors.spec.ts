// Issue 13 item 7 in real Chromium with the real agent: one notice per failure, in words, with
// the action that fixes it: an unreachable provider (after its retries), a refused key and a
// missing model; and the connection test does not say OK for a model the server does not list.
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runFinished,
  sendTask,
  startAgentWindow,
  type AgentWindow,
  type Scripts,
} from './support/agent-window';

const SCRIPTS: Scripts = {
  'Use a bad key': [{ status: 401 }],
  'Use a missing model': [{ status: 404 }],
};

/** A port nothing listens on: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function notices(page: Page): Promise<string[]> {
  return page.locator('.trace-notice .notice-text').allInnerTexts();
}

describe('a provider that cannot be reached', () => {
  let app: AgentWindow;
  let url: string;

  beforeAll(async () => {
    url = `http://127.0.0.1:${await closedPort()}/v1`;
    app = await startAgentWindow(
      'unreachable',
      {},
      {
        provider: { baseUrl: url, model: 'scripted-model', apiKey: 'sk-e2e' },
      },
    );
  });
  afterAll(() => app?.close());

  it('ends in one notice that says so in words, with Open Settings and Retry', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Say anything');
    await page.getByRole('alert').waitFor();
    await runFinished(page);
    const shown = await notices(page);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(
      new RegExp(
        `^Tandem could not reach ${url.replace(/[.]/g, '\\.')}: connection refused \\(after 4 attempts\\)\\.`,
      ),
    );
    expect(shown[0]).not.toContain('ECONNREFUSED');
    const notice = page.locator('.trace-notice');
    expect(await notice.getAttribute('role')).toBe('alert');
    expect(await notice.getByRole('button').allInnerTexts()).toEqual(['Open Settings', 'Retry']);

    // Retry sends the task again: one more failure, one more notice, not a pile.
    await notice.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.locator('.trace-task').count()).toBe(2);
    await expect.poll(() => notices(page)).toHaveLength(2);
    await runFinished(page);
    expect(await notices(page)).toHaveLength(2);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('a provider that refuses', () => {
  let app: AgentWindow;

  beforeAll(async () => {
    app = await startAgentWindow('refused', SCRIPTS);
  });
  afterAll(() => app?.close());

  it.each([
    [
      'Use a bad key',
      /^The provider at http:\/\/127\.0\.0\.1:\d+\/v1 refused the API key \(HTTP 401: scripted 401\); check the key in Settings\.$/,
    ],
    [
      'Use a missing model',
      /^The provider at http:\/\/127\.0\.0\.1:\d+\/v1 answered HTTP 404: scripted 404; check the base URL and the model name "scripted-model" in Settings\.$/,
    ],
  ])('"%s" ends in one notice with Open Settings', async (task, message) => {
    const { page } = await app.openProject();
    await sendTask(page, task);
    await page.getByRole('alert').waitFor();
    await runFinished(page);
    const shown = await page.locator('.trace-notice .notice-text').allInnerTexts();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(message);
    const notice = page.locator('.trace-notice');
    expect(await notice.getByRole('button').allInnerTexts()).toEqual(['Open Settings']);
    await notice.getByRole('button', { name: 'Open Settings' }).click();
    await page.getByRole('heading', { name: 'Model provider' }).waitFor();
    await page.context().close();
  });

  it('the connection test is not OK for a model the server does not list', async () => {
    const { page } = await app.openProject();
    await page.getByRole('button', { name: 'Settings' }).click();
    const model = page.getByRole('textbox', { name: 'Model' });
    await model.fill('gpt-9');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.locator('.test-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(
      /^Model not listed: 127\.0\.0\.1:\d+ answered \(1 model available\), but "gpt-9" is not among them: choose one from the list/,
    );
    expect(await result.getAttribute('class')).toContain('failed');
    await page.context().close();
  });
});
