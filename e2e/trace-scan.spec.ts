// Issue 13 items 4 and 8 in real Chromium with the real agent: one card per call (the approval
// inside the call's card, above its result), output collapsed to a line, "Ran because" only
// where it is news, durations without the person's decision, every answer's scope on its
// button, and at 900 px no status text wrapped mid-word.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/app-page';
import {
  runFinished,
  sendTask,
  startAgentWindow,
  type AgentWindow,
  type Scripts,
} from './support/agent-window';

const COMMAND = 'touch ran.txt';
const SCRIPTS: Scripts = {
  'Write, then run twice': [
    { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
    {
      toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content: '# Plan\n' } }],
    },
    { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
    { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
    { text: 'Wrote the plan and ran it twice.' },
  ],
};

/** How long the card is left waiting before the answer: far longer than the write takes. */
const DECISION_MS = 3000;

let app: AgentWindow;

beforeAll(async () => {
  app = await startAgentWindow('scan', SCRIPTS);
});

afterAll(() => app?.close());

function ms(text: string): number {
  const match = /^([\d.]+) (ms|s)$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: "${text}"`);
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1);
}

/** One line: no wrapping inside (a word cut in two would make two lines). */
async function oneLine(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const style = element.ownerDocument.defaultView!.getComputedStyle(element);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
    return element.getBoundingClientRect().height < line * 1.6;
  });
}

/**
 * The card waiting for an answer about `text`: right after a click the answered card may still
 * be on its way out, so the next card is found by what it is about, never by being pending alone.
 */
async function pending(page: Page, text: string): Promise<Locator> {
  const card = page.locator('.approval-panel.pending', { hasText: text });
  await card.waitFor();
  return card;
}

describe('a trace you can scan', () => {
  it('shows one card per call with scoped answers, collapsed output and honest durations', async () => {
    const { page, problems } = await app.openProject(900);
    await sendTask(page, 'Write, then run twice');

    // The write's card: every answer says what it covers before it is clicked.
    const write = await pending(page, 'plan.md');
    const scopes = await write.locator('.choice-scope').allInnerTexts();
    expect(scopes.slice(0, 4)).toEqual([
      'this call only',
      'any write_file call in this session',
      'any write_file call for 30 minutes',
      'any write_file call in this project',
    ]);
    await page.waitForTimeout(DECISION_MS);
    await write.getByRole('button', { name: /^Allow once/ }).click();

    const command = await pending(page, COMMAND);
    expect((await command.locator('.choice-scope').allInnerTexts())[1]).toBe(
      `${COMMAND} exactly in this session`,
    );
    await command.getByRole('button', { name: /^Allow for session/ }).click();
    await page.getByText('Wrote the plan and ran it twice.').waitFor();
    await runFinished(page);

    // One card per call, the approval inside it, above the result line.
    const cards = page.locator('article.tool-card');
    expect(await cards.count()).toBe(4);
    expect(await page.locator('.trace-row > article.approval-panel').count()).toBe(0);
    const writeCard = page.getByRole('article', { name: 'Tool call write_file' });
    const order = await writeCard.evaluate((card) =>
      [...card.children].map((child) => child.className.split(' ')[0]),
    );
    expect(order.indexOf('approval-panel')).toBeLessThan(order.indexOf('tool-summary'));

    // Output is a line until opened.
    expect(await page.locator('.tool-card-body').count()).toBe(0);
    expect(await writeCard.locator('.tool-summary').innerText()).toMatch(/^Created plan\.md/);

    // "Ran because" only where it is news: the second command ran on the session grant.
    const shells = page.getByRole('article', { name: 'Tool call shell' });
    expect(await page.locator('.provenance').count()).toBe(1);
    expect(await shells.nth(1).locator('.provenance').innerText()).toMatch(
      new RegExp(`^Ran because: you allowed ${COMMAND} exactly for this session at \\d\\d:\\d\\d$`),
    );

    // The write's duration is its own, not the seconds the card waited for an answer.
    const took = ms(await writeCard.locator('.tool-card-head .muted').innerText());
    expect(took).toBeLessThan(DECISION_MS);

    // At 900 px the status texts stay whole.
    const statusTexts = page.locator(
      '.tool-status, .tool-card-head .muted, .approval-outcome, .status-item',
    );
    expect(await statusTexts.count()).toBeGreaterThan(8);
    for (const text of await statusTexts.all()) {
      expect(await oneLine(text), await text.innerText()).toBe(true);
    }
    expect(await page.locator('html').evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(900);
    await saveScreenshot(page, 'trace-scan-900.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
