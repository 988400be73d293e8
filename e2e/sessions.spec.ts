// Issue 13 items 5 and 6 and the changes panel, in real Chromium with the real agent: sessions
// listed per folder with title, time and status; a past one opened with its whole trace and
// continued; renamed; deleted; a revert recorded in the trace and told to the model on its next
// request; every file a session changed, with its diff, put back one by one or all at once.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStoredSessions } from '../src/main/store/session-list';
import {
  lastUserMessages,
  runFinished,
  sendTask,
  startAgentWindow,
  type AgentWindow,
  type Scripts,
} from './support/agent-window';

const SCRIPTS: Scripts = {
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
  'Say hello': [{ text: 'Hello there.' }],
  'Continue the notes': [{ text: 'Continuing where we left off.' }],
  'What is on disk now?': [{ text: 'I will read again.' }],
  'Change two files': [
    {
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'one', new_text: 'uno' } },
      ],
    },
    { toolCalls: [{ name: 'shell', arguments: { command: 'echo made > b.txt' } }] },
    { text: 'Changed a.txt and made b.txt.' },
  ],
};

let app: AgentWindow;

beforeAll(async () => {
  app = await startAgentWindow('sessions', SCRIPTS);
});

afterAll(() => app?.close());

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
const rows = (page: Page) => sidebar(page).locator('.session-row');

/** Allows the card about `about` (found by it: an answered card may still be on its way out). */
async function allowPending(page: Page, about: string): Promise<void> {
  await page
    .locator('.approval-panel.pending', { hasText: about })
    .getByRole('button', { name: /^Allow once/ })
    .click();
}

describe('sessions', () => {
  it('lists, reopens with the whole trace, continues, renames and deletes sessions', async () => {
    const { page, problems } = await app.openProject(1280);
    await expect.poll(() => sidebar(page).innerText()).toContain('No sessions yet');

    await sendTask(page, 'Write the notes');
    await allowPending(page, 'notes.txt');
    await page.getByText('Wrote the notes.').waitFor();
    await runFinished(page);
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().locator('.session-title-text').innerText()).toBe(
      'Write the notes',
    );
    expect(await rows(page).first().locator('.session-status').innerText()).toBe('Done');

    // A new session starts empty; the list grows, newest first.
    await sidebar(page).getByRole('button', { name: 'New session' }).click();
    await page.getByText('Write a task below.').waitFor();
    await sendTask(page, 'Say hello');
    await page.getByText('Hello there.').waitFor();
    await runFinished(page);
    await expect
      .poll(() => sidebar(page).locator('.session-title-text').allInnerTexts())
      .toEqual(['Say hello', 'Write the notes']);

    // A fresh window (the folder reopened) lists both and opens the first with its whole trace.
    await page.context().close();
    const again = await app.openProject(1280);
    const view = again.page;
    await expect.poll(() => rows(view).count()).toBe(2);
    await sidebar(view)
      .getByRole('button', { name: /^Write the notes/ })
      .click();
    const card = view.getByRole('article', { name: 'Tool call write_file' });
    await card.waitFor();
    expect(await card.locator('.approval-outcome').innerText()).toBe('Allowed once');
    await view.getByText('Wrote the notes.').waitFor();
    expect(await view.locator('.trace-task').allInnerTexts()).toEqual(['Write the notes']);

    // Continuing it: the model gets the earlier task in its history.
    await sendTask(view, 'Continue the notes');
    await view.getByText('Continuing where we left off.').waitFor();
    await runFinished(view);
    expect(lastUserMessages(app.openai)).toEqual(['Write the notes', 'Continue the notes']);
    expect(await view.locator('.trace-task').allInnerTexts()).toEqual([
      'Write the notes',
      'Continue the notes',
    ]);

    // Rename and delete.
    const first = rows(view).filter({ hasText: 'Write the notes' });
    await first.getByRole('button', { name: 'Rename Write the notes' }).click();
    await view.getByRole('textbox', { name: 'Session title' }).fill('Release notes');
    await view.getByRole('textbox', { name: 'Session title' }).press('Enter');
    await expect
      .poll(() => sidebar(view).locator('.session-title-text').allInnerTexts())
      .toContain('Release notes');
    const hello = rows(view).filter({ hasText: 'Say hello' });
    await hello.getByRole('button', { name: 'Delete Say hello' }).click();
    await hello.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect
      .poll(() => sidebar(view).locator('.session-title-text').allInnerTexts())
      .toEqual(['Release notes']);
    const stored = await listStoredSessions(app.dataDir, app.project);
    expect(stored.map((s) => s.title)).toEqual(['Release notes']);
    expect(problems).toEqual([]);
    expect(again.problems).toEqual([]);
    await view.context().close();
  });
});

describe('undo tells the model', () => {
  it('records a revert in the trace and puts a note in the next request', async () => {
    const { page } = await app.openProject(1280);
    await sidebar(page).getByRole('button', { name: 'New session' }).click();
    await sendTask(page, 'Write the plan');
    await allowPending(page, 'plan.txt');
    await page.getByText('Wrote the plan.').waitFor();
    await runFinished(page);
    expect(existsSync(join(app.project, 'plan.txt'))).toBe(true);

    const card = page.getByRole('article', { name: 'Tool call write_file' });
    await card.getByRole('button', { name: 'Revert' }).click();
    await card.getByRole('button', { name: 'Reverted' }).waitFor();
    expect(existsSync(join(app.project, 'plan.txt'))).toBe(false);
    const line = page.locator('.reverted-line');
    expect(await line.innerText()).toBe(
      'You reverted the write of plan.txt: deleted plan.txt. The agent is told before its next step.',
    );

    await sendTask(page, 'What is on disk now?');
    await page.getByText('I will read again.').waitFor();
    await runFinished(page);
    const told = lastUserMessages(app.openai);
    expect(told.at(-1)).toBe('What is on disk now?');
    expect(told.at(-2)).toMatch(
      /^Note from Tandem \(not a new task\): the person reverted your write of plan\.txt \(deleted plan\.txt\)\./,
    );
    await page.context().close();
  });
});

describe('the changes panel', () => {
  it("lists the session's files with their diffs and reverts one, then all", async () => {
    await writeFile(join(app.project, 'a.txt'), 'one\ntwo\n');
    const { page, problems } = await app.openProject(1280);
    await sidebar(page).getByRole('button', { name: 'New session' }).click();
    await sendTask(page, 'Change two files');
    await allowPending(page, 'a.txt');
    await allowPending(page, 'echo made > b.txt');
    await page.getByText('Changed a.txt and made b.txt.').waitFor();
    await runFinished(page);

    await page.getByRole('button', { name: /^Changes/ }).click();
    const panel = page.getByRole('complementary', { name: 'Changes in this session' });
    await expect
      .poll(() => panel.locator('.changed-path').allInnerTexts())
      .toEqual(['a.txt', 'b.txt']);
    const a = panel.locator('.changed-file').filter({ hasText: 'a.txt' });
    expect(await a.locator('.change-kind').innerText()).toMatch(/modified/i);
    expect(await a.locator('tr.diff-del td.code').innerText()).toBe('−one');
    expect(await a.locator('tr.diff-add td.code').innerText()).toBe('+uno');
    expect(await panel.locator('.changes-summary').innerText()).toContain('2 files changed, +2 −1');

    await panel.getByRole('button', { name: 'Revert b.txt' }).click();
    await expect.poll(() => panel.locator('.changed-path').allInnerTexts()).toEqual(['a.txt']);
    expect(existsSync(join(app.project, 'b.txt'))).toBe(false);

    await panel.getByRole('button', { name: 'Revert all…' }).click();
    await panel.getByRole('button', { name: 'Revert all', exact: true }).click();
    await panel.getByText('This session has not changed any file').waitFor();
    expect(await readFile(join(app.project, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(await page.locator('.reverted-line').count()).toBe(2);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
