// Beyond issue 13's anchors, in real Chromium with the real agent: one turn's changes wait as one
// stack with a summary and are allowed (or denied) with one key; a proposed command is edited on
// its card, what runs is exactly the edited version, and an edit that needs more is asked again.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  'Three changes': [
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: 'one.txt', content: '1\n' } },
        { name: 'write_file', arguments: { path: 'two.txt', content: '2\n' } },
        { name: 'shell', arguments: { command: 'cat one.txt two.txt > both.txt' } },
      ],
    },
    { text: 'Made three changes.' },
  ],
  'Two more': [
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: 'three.txt', content: '3\n' } },
        { name: 'shell', arguments: { command: 'touch four.txt' } },
      ],
    },
    { text: 'Understood, nothing changed.' },
  ],
  'Make a file': [
    { toolCalls: [{ name: 'shell', arguments: { command: 'touch proposed.txt' } }] },
    { text: 'Made a file.' },
  ],
  'Make another file': [
    { toolCalls: [{ name: 'shell', arguments: { command: 'touch x.txt' } }] },
    { text: 'Did not make it.' },
  ],
};

let app: AgentWindow;

beforeAll(async () => {
  app = await startAgentWindow('stack', SCRIPTS);
});

afterAll(() => app?.close());

const stack = (page: Page) => page.getByRole('region', { name: 'Approvals of one step' });

describe('stacked approvals', () => {
  it('shows one turn as a stack with a summary and allows all three with one key', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Three changes');
    await stack(page).waitFor();
    await expect.poll(() => page.locator('.approval-panel.pending').count()).toBe(3);
    expect(await stack(page).locator('p').innerText()).toMatch(
      /^3 changes wait for you: 2 edits in 2 files, 1 command\./,
    );
    expect(existsSync(join(app.project, 'one.txt'))).toBe(false);

    await page.keyboard.press('Shift+Y');
    await page.getByText('Made three changes.').waitFor();
    await runFinished(page);
    expect(await page.locator('.approval-outcome').allInnerTexts()).toEqual([
      'Allowed once',
      'Allowed once',
      'Allowed once',
    ]);
    // They ran in the turn's order: the command read what the writes made.
    expect(await readFile(join(app.project, 'both.txt'), 'utf8')).toBe('1\n2\n');
    expect(await stack(page).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('denies the whole stack with Shift+N', async () => {
    const { page } = await app.openProject();
    await sendTask(page, 'Two more');
    await stack(page).waitFor();
    await expect.poll(() => page.locator('.approval-panel.pending').count()).toBe(2);
    await page.keyboard.press('Shift+N');
    await page.getByText('Understood, nothing changed.').waitFor();
    await runFinished(page);
    expect(await page.locator('.approval-outcome').allInnerTexts()).toEqual(['Denied', 'Denied']);
    expect(existsSync(join(app.project, 'three.txt'))).toBe(false);
    expect(existsSync(join(app.project, 'four.txt'))).toBe(false);
    await page.context().close();
  });
});

describe('editing before allowing', () => {
  it('runs exactly the edited command and tells the model', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Make a file');
    const card = page.locator('.approval-panel.pending');
    await card.waitFor();
    expect(await card.getByRole('button', { name: /^Edit, then allow/ }).count()).toBe(1);
    await page.keyboard.press('e');
    const editor = page.getByRole('textbox', { name: 'Edited command' });
    expect(await editor.inputValue()).toBe('touch proposed.txt');
    await editor.fill('touch edited.txt');
    await editor.press('Control+Enter');
    await page.getByText('Made a file.').waitFor();
    await runFinished(page);

    expect(existsSync(join(app.project, 'edited.txt'))).toBe(true);
    expect(existsSync(join(app.project, 'proposed.txt'))).toBe(false);
    const tool = page.getByRole('article', { name: 'Tool call shell' });
    expect(await tool.locator('.tool-args').innerText()).toBe('command: touch edited.txt');
    expect(await tool.locator('.approval-outcome').innerText()).toBe(
      'Allowed once, your edited version',
    );
    const told = app.openai
      .chatBodies()
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(told.at(-1)).toMatch(
      /^The person edited this command before allowing it\. What ran instead of yours:\ntouch edited\.txt\n/,
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('asks again when the edit makes the command riskier', async () => {
    await writeFile(join(app.project, 'keep.txt'), 'keep\n');
    const { page } = await app.openProject();
    await sendTask(page, 'Make another file');
    const card = page.locator('.approval-panel.pending');
    await card.getByRole('button', { name: /^Edit, then allow/ }).click();
    await page
      .getByRole('textbox', { name: 'Edited command' })
      .fill('touch x.txt && rm -f keep.txt');
    await page.getByRole('button', { name: /^Allow edited version/ }).click();

    // A new card for the same call: the edited command, with what is new first.
    const again = page.locator('.approval-panel.pending');
    await again.locator('pre.command', { hasText: 'rm -f keep.txt' }).waitFor();
    expect(await again.locator('.approval-reasons li').first().innerText()).toMatch(
      /^you edited this call, and your version needs more than the card you answered: .*rm/,
    );
    expect(existsSync(join(app.project, 'x.txt'))).toBe(false);
    await again.getByRole('button', { name: /^Deny/ }).first().click();
    await page.getByText('Did not make it.').waitFor();
    await runFinished(page);
    expect(existsSync(join(app.project, 'keep.txt'))).toBe(true);
    expect(existsSync(join(app.project, 'x.txt'))).toBe(false);
    await page.context().close();
  });
});
