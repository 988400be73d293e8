// Issue 13 items 1, 2 and 9 in real Chromium with the real agent behind the window: the card's
// keys work right after sending (the task box never swallows them), the trace follows a run
// while the person is at the end and otherwise shows a pill that reaches the waiting card in one
// click or key, and progress is visible (thinking, a command's elapsed time, its own Stop).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runFinished,
  sendTask,
  startAgentWindow,
  type AgentWindow,
  type Scripts,
} from './support/agent-window';

const LOOKS = Array.from({ length: 24 }, (_, i) => ({
  name: 'list_dir',
  arguments: { path: '.', depth: 1 + (i % 2) },
}));

const SCRIPTS: Scripts = {
  'Touch a file': [
    { toolCalls: [{ name: 'shell', arguments: { command: 'touch made.txt' } }] },
    { text: 'Made it.' },
  ],
  'Touch another': [
    { toolCalls: [{ name: 'shell', arguments: { command: 'touch other.txt' } }] },
    { text: 'Made the other one.' },
  ],
  'Look around a lot': [
    { toolCalls: LOOKS },
    { text: `I looked ${LOOKS.length} times.\n\n${'A long paragraph. '.repeat(60)}` },
  ],
  'Say more': [{ text: `More.\n\n${'Another long paragraph. '.repeat(80)}` }],
  'Think, then wait': [
    {
      delayMs: 2500,
      toolCalls: [{ name: 'shell', arguments: { command: 'sleep 30 && touch slept.txt' } }],
    },
    { text: 'Stopped waiting.' },
  ],
};

let app: AgentWindow;

beforeAll(async () => {
  app = await startAgentWindow('focus', SCRIPTS);
});

afterAll(() => app?.close());

const pendingCard = (page: Page): Locator => page.locator('.approval-panel.pending');
const taskBox = (page: Page): Locator => page.getByRole('textbox', { name: 'Task' });

async function traceScroll(page: Page): Promise<{ top: number; max: number }> {
  return page
    .locator('.trace')
    .evaluate((e) => ({ top: e.scrollTop, max: e.scrollHeight - e.clientHeight }));
}

async function inView(page: Page, locator: Locator): Promise<boolean> {
  const trace = await page.locator('.trace').boundingBox();
  const box = await locator.boundingBox();
  if (!trace || !box) return false;
  return box.y < trace.y + trace.height && box.y + box.height > trace.y;
}

describe('keys after sending', () => {
  it('answers the card with Y right after Enter in the task box; typing a task keeps its keys', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Touch a file');
    await pendingCard(page).waitFor();
    // The new card took the focus from the (now empty) task box.
    expect(await pendingCard(page).evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);

    // Typing into the task box again, Y is a letter of the task and the card waits.
    await taskBox(page).click();
    await page.keyboard.type('next step');
    await page.keyboard.press('y');
    expect(await taskBox(page).inputValue()).toBe('next stepy');
    expect(await pendingCard(page).count()).toBe(1);

    // Escape hands the keys back to the card; Y answers it and the task text stays.
    await page.keyboard.press('Escape');
    await page.keyboard.press('y');
    await page.getByText('Made it.').waitFor();
    await runFinished(page);
    expect(await taskBox(page).inputValue()).toBe('next stepy');
    expect(existsSync(join(app.project, 'made.txt'))).toBe(true);
    expect(await page.locator('.approval-outcome').first().innerText()).toBe('Allowed once');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('following the run', () => {
  it('follows the end, and scrolled up shows a pill that brings the waiting card into view', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Look around a lot');
    await page.getByText(`I looked ${LOOKS.length} times.`).waitFor();
    await runFinished(page);
    // At the end the trace stayed at the end while it grew.
    await expect.poll(async () => (await traceScroll(page)).max).toBeGreaterThan(400);
    await expect
      .poll(async () => {
        const { top, max } = await traceScroll(page);
        return max - top;
      })
      .toBeLessThan(60);

    // Scrolled up to read, a follow-up's card does not move the view; a pill says it waits.
    await page.locator('.trace').evaluate((e) => e.scrollTo({ top: 0 }));
    await expect.poll(async () => (await traceScroll(page)).top).toBe(0);
    await sendTask(page, 'Touch another');
    const pill = page.getByRole('button', { name: /^1 approval waiting/ });
    await pill.waitFor();
    expect((await traceScroll(page)).top).toBe(0);
    expect(await inView(page, pendingCard(page))).toBe(false);

    // One key brings it into view without answering it; the next one answers.
    await page.keyboard.press('y');
    await expect.poll(() => inView(page, pendingCard(page))).toBe(true);
    expect(existsSync(join(app.project, 'other.txt'))).toBe(false);
    expect(await pendingCard(page).count()).toBe(1);
    await page.keyboard.press('y');
    await page.getByText('Made the other one.').waitFor();
    await runFinished(page);
    expect(existsSync(join(app.project, 'other.txt'))).toBe(true);

    // Scrolled up again, new text below shows "Jump to latest", which goes to the end.
    await page.locator('.trace').evaluate((e) => e.scrollTo({ top: 0 }));
    await expect.poll(async () => (await traceScroll(page)).top).toBe(0);
    await sendTask(page, 'Say more');
    await runFinished(page);
    const jump = page.getByRole('button', { name: /^Jump to latest/ });
    await jump.click();
    await expect
      .poll(async () => {
        const { top, max } = await traceScroll(page);
        return max - top;
      })
      .toBeLessThan(60);
    await page.getByText('More.', { exact: true }).waitFor();
    expect(await jump.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('progress', () => {
  it('shows the model thinking, then a running command with its elapsed time and its own Stop', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Think, then wait');
    const thinking = page.getByText(/^Thinking… \d+ s$/);
    await thinking.waitFor();
    await pendingCard(page).waitFor();
    expect(await thinking.count()).toBe(0);
    await pendingCard(page)
      .getByRole('button', { name: /^Allow once/ })
      .click();

    const card = page.getByRole('article', { name: 'Tool call shell' });
    await card.locator('.elapsed').waitFor();
    expect(await card.locator('.elapsed').innerText()).toMatch(/^\d+ s$/);
    expect(await card.locator('.tool-status').innerText()).toBe('Running');
    await card.getByRole('button', { name: 'Stop command' }).click();

    // Stopped, not failed; the run went on and the model heard of it.
    await page.getByText('Stopped waiting.').waitFor();
    await runFinished(page);
    expect(await card.locator('.tool-status').innerText()).toBe('Stopped');
    expect(await card.locator('.tool-status').getAttribute('class')).not.toContain('failed');
    const toolMessages = app.openai
      .chatBodies()
      .at(-1)!
      .messages.filter((m) => m.role === 'tool');
    expect(String(toolMessages.at(-1)?.content)).toMatch(/^Stopped by the person after /);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
