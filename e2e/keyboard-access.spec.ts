// Issue 13: keyboard access everywhere. On each screen (the welcome screen, an open folder with
// the sessions sidebar, a finished card, an answer with code, a waiting card and the changes
// panel, and Settings) Tab alone reaches every control that is on screen, comes back round
// without getting stuck, and each control shows where the focus is when it has it.
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
  'Show the code': [{ text: 'Run this:\n\n```sh\nnpm test\n```' }],
  'Write the notes': [
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: 'notes.txt', content: 'first draft\n' } },
      ],
    },
    { text: 'Wrote the notes.' },
  ],
  'Write the plan': [
    {
      toolCalls: [{ name: 'write_file', arguments: { path: 'plan.txt', content: 'step one\n' } }],
    },
    { text: 'Wrote the plan.' },
  ],
};

let app: AgentWindow;

beforeAll(async () => {
  app = await startAgentWindow('keys', SCRIPTS);
});

afterAll(() => app?.close());

interface Stop {
  readonly id: string;
  readonly name: string;
  /** What changes when it takes the focus (outline or shadow); empty: nothing visible. */
  readonly ring: string;
}

/**
 * Marks every control on screen (a radio group counts once: Tab reaches its chosen option) and
 * notes how each looks without the focus. Returns their descriptions.
 */
const MARK_CONTROLS = `(() => {
  const selector = 'button, a[href], input, select, textarea, summary, [tabindex]';
  const ring = (el) => {
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0
      ? s.outlineStyle + ' ' + s.outlineWidth + ' ' + s.outlineColor : '';
    return outline + '|' + (s.boxShadow === 'none' ? '' : s.boxShadow);
  };
  // A radio that hides itself shows the focus on its label.
  window.__ringOf = (el) => {
    const own = ring(el);
    const label = el.type === 'radio' ? el.closest('label') : null;
    return label ? own + '#' + ring(label) : own;
  };
  window.__nameOf = (el) =>
    (el.getAttribute('aria-label') || el.innerText || el.value || el.title || el.tagName)
      .trim().replace(/\\s+/g, ' ').slice(0, 60) + ' <' + el.tagName.toLowerCase() + '>';
  window.__baseline = new Map();
  window.__nextId = 0;
  const groups = new Set();
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.disabled || el.tabIndex < 0 || el.type === 'hidden') continue;
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.type === 'radio') {
      const chosen = document.querySelector('input[type=radio][name="' + el.name + '"]:checked');
      if (groups.has(el.name) || (chosen && chosen !== el)) continue;
      groups.add(el.name);
    }
    el.dataset.kb = String(window.__nextId++);
    window.__baseline.set(el, window.__ringOf(el));
    found.push(window.__nameOf(el) + ' #' + el.dataset.kb);
  }
  document.activeElement?.blur();
  return found;
})()`;

/** The focused control: its mark, its name, and how its look changed from the mark. */
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  if (el.dataset.kb === undefined) el.dataset.kb = 'new' + window.__nextId++;
  const now = window.__ringOf(el);
  const before = window.__baseline.get(el) ?? '|';
  return { id: el.dataset.kb, name: window.__nameOf(el), ring: now === before ? '' : now };
})()`;

/** Presses Tab until the focus comes back to a control it reached already: one whole round. */
async function tabRound(page: Page): Promise<{ controls: string[]; stops: Stop[] }> {
  const controls = (await page.evaluate(MARK_CONTROLS)) as string[];
  const stops: Stop[] = [];
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    // Past the last control the focus leaves the page for a step; the next Tab comes back.
    const stop = (await page.evaluate(FOCUSED)) as Stop | null;
    if (stop === null) continue;
    if (stops.some((seen) => seen.id === stop.id)) {
      // Round again: it must come back to where the round started, not loop in a part.
      expect(stop.id).toBe(stops[0]?.id);
      break;
    }
    stops.push(stop);
  }
  return { controls, stops };
}

function expectParts(stops: readonly Stop[], parts: readonly RegExp[]): void {
  const names = stops.map((stop) => stop.name);
  for (const part of parts) {
    expect(
      names.some((name) => part.test(name)),
      `${part} in ${names.join(', ')}`,
    ).toBe(true);
  }
}

function expectAllReached(round: { controls: string[]; stops: Stop[] }): void {
  const reached = new Set(round.stops.map((stop) => stop.id));
  const missed = round.controls.filter((control) => !reached.has(control.split(' #').pop()!));
  expect(missed).toEqual([]);
  const unmarked = round.stops.filter((stop) => stop.ring === '').map((stop) => stop.name);
  expect(unmarked).toEqual([]);
}

describe('keyboard access', () => {
  it('reaches every control of the session view by Tab, each with a visible focus', async () => {
    const { page, problems } = await app.openProject(1280);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await sendTask(page, 'Show the code');
    await page.locator('.code-block').waitFor();
    await runFinished(page);
    await sendTask(page, 'Write the notes');
    await page
      .locator('.approval-panel.pending')
      .getByRole('button', { name: /^Allow once/ })
      .click();
    await page.getByText('Wrote the notes.').waitFor();
    await runFinished(page);
    await page.getByRole('button', { name: /^Changes/ }).click();
    await page.getByRole('complementary', { name: 'Changes in this session' }).waitFor();

    // Between runs: sidebar, header, the cards, the code, the composer, the panel, the status.
    const idle = await tabRound(page);
    expectParts(idle.stops, [
      /^New session/,
      /^Rename /,
      /^Delete /,
      /^Hide sessions/,
      /^Settings/,
      /^Copy/,
      /^Revert this run/,
      /^Show the output of write_file/,
      /^Task </,
      /^Revert all/,
      /^Revert notes\.txt/,
      /^Mode </,
    ]);
    expectAllReached(idle);

    // A card waiting for an answer: every answer is a Tab stop too.
    await sendTask(page, 'Write the plan');
    await page.locator('.approval-panel.pending').waitFor();
    const waiting = await tabRound(page);
    expectParts(waiting.stops, [/^Allow once/, /^Allow for session/, /^Edit, then allow/, /^Deny/]);
    expectAllReached(waiting);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('reaches every control of Settings and of the welcome screen', async () => {
    const { page, problems } = await app.openProject(1100);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Model provider' }).waitFor();
    const settings = await tabRound(page);
    expect(settings.stops.length).toBeGreaterThan(5);
    expectAllReached(settings);

    await page.getByRole('button', { name: /^Done/ }).click();
    await page.getByRole('button', { name: 'Change folder' }).click();
    await page.getByRole('button', { name: 'Choose a folder' }).waitFor();
    const welcome = await tabRound(page);
    expect(welcome.stops.map((stop) => stop.name)).toContainEqual(
      expect.stringMatching(/^Choose a folder/),
    );
    expectAllReached(welcome);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
