// Issue 9 row 12 and issue 13 item 3 in the window: a 300-character command holding an ESC
// sequence and a right-to-left override, proposed by the scripted model to the REAL agent, is
// fully visible on its approval card at 900 px: wrapped (no sideways scroll, nothing past the
// card's border), with both characters shown as marked escapes and never raw.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visibleText } from '../src/shared/visible-text';
import type { ScriptedTurn } from '../src/test-support/scripted-openai-server';
import { openAppPage, saveScreenshot } from './support/app-page';
import { scriptedTurn, startRealAgent, type RealAgent } from './support/agent-window';

const ESC = '\u001b';
const RLO = '\u202e';
const LONG_PATH = `build/${'generated-output-'.repeat(6)}cache`;
const HEAD = `rm -rf ${LONG_PATH} && printf '${ESC}[2J${ESC}[H' && mv notes.txt 'notes${RLO}txt.sh' && echo `;
const TAIL = ' END-OF-COMMAND';
/** Exactly 300 characters: a long unbroken path, an ESC sequence, an RLO, then plain words. */
const COMMAND = HEAD + 'padding '.repeat(40).slice(0, 300 - HEAD.length - TAIL.length) + TAIL;
const SHOWN = visibleText(COMMAND, { layout: 'inline' });
const TASK = 'Clean the build folder';

const SCRIPT: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'shell', arguments: { command: COMMAND } }] },
  { text: 'Understood, I left the build folder alone.' },
];

let agent: RealAgent;

beforeAll(async () => {
  agent = await startRealAgent('escapes', 'build-site', scriptedTurn({ [TASK]: SCRIPT }));
});

afterAll(() => agent?.close());

interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

async function box(locator: Locator): Promise<Box> {
  return locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
}

/** Whether `inner` lies within `outer`'s border box (a pixel of rounding allowed). */
function inside(inner: Box, outer: Box): boolean {
  return (
    inner.left >= outer.left - 1 &&
    inner.right <= outer.right + 1 &&
    inner.top >= outer.top - 1 &&
    inner.bottom <= outer.bottom + 1
  );
}

/** What the page shows but cannot scroll to sideways: scrollWidth past clientWidth. */
async function sidewaysOverflow(locator: Locator): Promise<number> {
  return locator.evaluate((element) => element.scrollWidth - element.clientWidth);
}

async function openProject(): Promise<{ page: Page; problems: string[] }> {
  const opened = await openAppPage(agent.setup.browser, agent.setup.web.url, agent.bridge.url);
  await opened.page.setViewportSize({ width: 900, height: 720 });
  await opened.page.getByRole('button', { name: 'Choose a folder' }).click();
  await opened.page.getByRole('heading', { name: 'build-site' }).waitFor();
  return opened;
}

describe('a long hostile command on the approval card at 900 px', () => {
  it('is shown whole, wrapped inside the card, with ESC and U+202E as visible escapes', async () => {
    expect(COMMAND).toHaveLength(300);
    const { page, problems } = await openProject();
    await page.getByRole('textbox', { name: 'Task' }).fill(TASK);
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');

    const card = page.getByRole('article', { name: 'Approval for shell' });
    await card.waitFor();
    const command = card.locator('pre.command');

    // Every character is there, the two hidden ones as escapes; nothing raw reaches the page.
    expect(await command.innerText()).toBe(`$ ${SHOWN}`);
    expect(SHOWN).toContain("printf '\\x1b[2J\\x1b[H'");
    expect(SHOWN).toContain("'notes⟨U+202E⟩txt.sh'");
    const cardText = await card.innerText();
    expect(cardText).not.toContain(ESC);
    expect(cardText).not.toContain(RLO);
    expect(await command.locator('.escape').allInnerTexts()).toEqual([
      '\\x1b',
      '\\x1b',
      '⟨U+202E⟩',
    ]);

    // Wrapped, not clipped: several lines, no sideways scroll, inside the card, the end in view.
    const cardBox = await box(card);
    const commandBox = await box(command);
    // The "$ " prompt is one line high.
    const prompt = await box(command.locator('.prompt'));
    const lineHeight = prompt.bottom - prompt.top;
    expect(commandBox.bottom - commandBox.top).toBeGreaterThan(3 * lineHeight);
    expect(await sidewaysOverflow(command)).toBeLessThanOrEqual(0);
    expect(inside(commandBox, cardBox)).toBe(true);
    const end = command.getByText('END-OF-COMMAND');
    expect(inside(await box(end), commandBox)).toBe(true);

    // The per-part list and the reasons wrap inside the card too.
    const rows = card.locator('.command-parts li, .approval-reasons li');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const row of await rows.all()) {
      expect(inside(await box(row), cardBox), await row.innerText()).toBe(true);
      expect(await sidewaysOverflow(row)).toBeLessThanOrEqual(0);
    }
    expect(await sidewaysOverflow(card)).toBeLessThanOrEqual(0);
    expect(await page.locator('html').evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(900);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await card.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'approval-long-command-900.png');

    await card.getByRole('button', { name: /^Deny/ }).first().click();
    await card.getByText('Denied').waitFor();
    await page.getByText('Understood, I left the build folder alone.').waitFor();
    expect(existsSync(join(agent.project, `notes${RLO}txt.sh`))).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
