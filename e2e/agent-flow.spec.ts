// DESIGN.md §7's end-to-end test: the built window in real Chromium, the REAL agent behind it
// (createAgentRunControllerFactory: runner, tools, permission gate, broker, journal, pty), the
// openai SDK against the scripted OpenAI-compatible server, and a real temp project folder.
// Every wait is on DOM or disk state the scenario produces, never on time.
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonFilePermissionsStore } from '../src/main/permissions/project-permissions-store';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { shellSessions } from '../src/main/shell/shell-sessions';
import type { ScriptedTurn } from '../src/test-support/scripted-openai-server';
import { runFinished, sendTask, startAgentWindow, type AgentWindow } from './support/agent-window';
import { saveScreenshot } from './support/app-page';

const COLOUR_COMMAND = "printf '\\033[32mgreen\\033[0m\\n' && echo hi > out.txt";
const INPUT_COMMAND = 'read line; echo "got:$line"';
const SECOND_COMMAND = 'touch two.txt';
const DIR_ONE = 'mkdir -p out/one';
const DIR_TWO = 'mkdir -p out/two';
const NOTE = 'Keep alpha; put the change in CHANGES.md instead.';

/** Each task the test sends plays its own script: turn N answers after the model's Nth turn. */
const SCRIPTS: Readonly<Record<string, readonly ScriptedTurn[]>> = {
  'Print in colour and write out.txt': [
    { toolCalls: [{ name: 'shell', arguments: { command: COLOUR_COMMAND } }] },
    { text: 'Printed it and wrote **out.txt**.' },
  ],
  'Change alpha to beta': [
    {
      toolCalls: [
        {
          name: 'edit_file',
          arguments: { path: 'notes.txt', old_text: 'alpha', new_text: 'beta' },
        },
      ],
    },
    { text: 'Understood, notes.txt stays as it is.' },
  ],
  'Look around': [
    {
      toolCalls: [
        { name: 'list_dir', arguments: { path: '.' } },
        { name: 'read_file', arguments: { path: 'notes.txt' } },
      ],
    },
    { text: 'I looked at the folder and read notes.txt.' },
  ],
  'Ask me something': [
    { toolCalls: [{ name: 'shell', arguments: { command: INPUT_COMMAND } }] },
    { text: 'Thanks for the answer.' },
  ],
  'Write two.txt': [
    { toolCalls: [{ name: 'shell', arguments: { command: SECOND_COMMAND } }] },
    { text: 'Wrote two.txt.' },
  ],
  'Make folder one': [
    { toolCalls: [{ name: 'shell', arguments: { command: DIR_ONE } }] },
    { text: 'Made out/one.' },
  ],
  'Make folder two': [
    { toolCalls: [{ name: 'shell', arguments: { command: DIR_TWO } }] },
    { text: 'Made out/two.' },
  ],
};

let app: AgentWindow;

beforeAll(async () => {
  app = await startAgentWindow('agent-flow', SCRIPTS, {
    prepare: (project) => writeFile(join(project, 'notes.txt'), 'alpha\n'),
  });
});

afterAll(() => app?.close());

describe('the real agent behind the window', () => {
  it('(a) asks for a command, runs it after "Allow once", shows colours and changes, and reverts it', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Print in colour and write out.txt');

    const card = page.getByRole('article', { name: 'Approval for shell' });
    await card.waitFor();
    expect(await card.locator('pre.command').innerText()).toBe(`$ ${COLOUR_COMMAND}`);
    const parts = card.locator('.command-parts li');
    expect(await parts.count()).toBe(2);
    expect(await parts.nth(0).innerText()).toContain("printf '\\033[32mgreen\\033[0m\\n'");
    // The redirection is a reason of the whole line (the classifier's structure), shown as text.
    expect(await card.locator('.approval-reasons').innerText()).toContain(
      'writes to a file: > out.txt',
    );
    const sandbox = await probeSandbox();
    // The state for this call (the project's network setting is added to the probe's line).
    expect(await card.locator('.sandbox-line').innerText()).toContain(
      sandbox.available
        ? `Sandbox: ${sandbox.description}`
        : `Not sandboxed: ${sandbox.description}`,
    );
    expect(existsSync(join(app.project, 'out.txt'))).toBe(false);

    await card.getByRole('button', { name: /^Allow once/ }).click();
    await card.getByText('Allowed once').waitFor();
    await page.getByText('Printed it and wrote').waitFor();
    await runFinished(page);
    expect(await readFile(join(app.project, 'out.txt'), 'utf8')).toBe('hi\n');

    const tool = page.getByRole('article', { name: 'Tool call shell' });
    // One card per call: the approval's answer is on the call's own card.
    expect(await tool.locator('.approval-outcome-line').innerText()).toMatch(
      /^Allowed once · \d\d:\d\d$/,
    );
    // Finished, the output is one line until the card is opened.
    expect(await tool.locator('.tool-summary').innerText()).toMatch(/^exit code 0 · 1 line/);
    await tool.locator('.tool-summary').click();
    // The terminal got the raw bytes: the text, in green (xterm's colour 2).
    // A finished command's terminal exists near the viewport; in view it is built from its output.
    await tool.scrollIntoViewIfNeeded();
    const green = tool.locator('.xterm-rows span', { hasText: 'green' });
    await green.waitFor();
    expect(await green.getAttribute('class')).toContain('xterm-fg-2');
    expect(await tool.locator('.change-summary > pre').innerText()).toBe(
      'Changes on disk (can be reverted): 1 file changed, +1 −0\nadded out.txt (+1 −0)',
    );
    // Why it ran is on the approval line; "Ran because" is left for calls that ran unasked.
    expect(await tool.locator('.provenance').count()).toBe(0);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await saveScreenshot(page, 'session-shell.png');

    await tool.getByRole('button', { name: 'Revert' }).click();
    await tool.getByText('Reverted: deleted out.txt').waitFor();
    expect(existsSync(join(app.project, 'out.txt'))).toBe(false);
    expect(await tool.getByRole('button', { name: 'Reverted' }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('(b) shows the diff of an edit; "Deny with note" leaves the file and tells the model', async () => {
    const { page } = await app.openProject();
    await sendTask(page, 'Change alpha to beta');
    const card = page.getByRole('article', { name: 'Approval for edit_file' });
    await card.waitFor();
    // Rows with line numbers, no raw ---/+++ header lines.
    expect(await card.locator('tr.diff-del td.code').innerText()).toBe('−alpha');
    expect(await card.locator('tr.diff-add td.code').innerText()).toBe('+beta');
    expect(await card.locator('tr.diff-del td.ln').allInnerTexts()).toEqual(['1', '']);
    expect(await card.locator('tr.diff-add td.ln').allInnerTexts()).toEqual(['', '1']);
    expect(await card.locator('.diff-view').innerText()).not.toMatch(/^(---|\+\+\+|===)/m);

    await card.getByRole('button', { name: /Deny with note/ }).click();
    await page.getByRole('textbox', { name: 'Note to the agent' }).fill(NOTE);
    await card.getByRole('button', { name: 'Deny with note' }).click();
    await card.getByText('Denied with a note').waitFor();
    await page.getByText('Understood, notes.txt stays as it is.').waitFor();
    await runFinished(page);

    expect(await readFile(join(app.project, 'notes.txt'), 'utf8')).toBe('alpha\n');
    const tool = page.getByRole('article', { name: 'Tool call edit_file' });
    expect(await tool.locator('.tool-status').innerText()).toBe('Not run');
    // The note reached the model as the call's result.
    const toolMessages = app.openai
      .chatBodies()
      .flatMap((b) => b.messages)
      .filter((m) => m.role === 'tool');
    expect(toolMessages.some((m) => String(m.content).includes(NOTE))).toBe(true);
    await page.context().close();
  });

  it('(c) runs read-only calls without asking', async () => {
    const { page } = await app.openProject();
    await sendTask(page, 'Look around');
    await page.getByText('I looked at the folder and read notes.txt.').waitFor();
    await runFinished(page);
    expect(await page.getByRole('article', { name: /^Approval for/ }).count()).toBe(0);
    for (const name of ['list_dir', 'read_file']) {
      const tool = page.getByRole('article', { name: `Tool call ${name}` });
      expect(await tool.locator('.tool-status').innerText()).toBe('Done');
      // Reads always run: saying so on every card is not news.
      expect(await tool.locator('.provenance').count()).toBe(0);
    }
    const read = page.getByRole('article', { name: 'Tool call read_file' });
    expect(await read.locator('.tool-summary').innerText()).toMatch(
      /^notes\.txt \(lines 1-1 of 1\)/,
    );
    await read.getByRole('button', { name: 'Show the output of read_file' }).click();
    expect(await read.locator('pre.tool-output').innerText()).toContain('alpha');
    await page.context().close();
  });

  it('(d) lets the person type into a running command', async () => {
    const { page } = await app.openProject();
    await sendTask(page, 'Ask me something');
    const card = page.getByRole('article', { name: 'Approval for shell' });
    await card.getByRole('button', { name: /^Allow once/ }).click();
    const tool = page.getByRole('article', { name: 'Tool call shell' });
    await tool.getByText('Type here to answer the command.').waitFor();
    // The command's pty exists once it registered; wait on that state, not on time.
    await expect.poll(() => shellSessions.size, { timeout: 20_000, interval: 20 }).toBe(1);

    await tool.locator('.xterm').click();
    await page.keyboard.type('yes');
    await page.keyboard.press('Enter');
    await tool.locator('.xterm-rows', { hasText: 'got:yes' }).waitFor();
    await page.getByText('Thanks for the answer.').waitFor();
    await runFinished(page);
    const results = app.openai
      .chatBodies()
      .flatMap((b) => b.messages)
      .filter((m) => m.role === 'tool');
    expect(results.some((m) => String(m.content).includes('got:yes'))).toBe(true);
    // Finished: the window no longer reaches that pty.
    expect(shellSessions.size).toBe(0);
    await page.context().close();
  });

  it('(e) previews "Always allow" over earlier calls, stores the rule, and reverts a whole run', async () => {
    const { page } = await app.openProject();
    await sendTask(page, 'Write two.txt');
    const first = page.getByRole('article', { name: 'Approval for shell' });
    await first.getByRole('button', { name: /^Allow once/ }).click();
    await page.getByText('Wrote two.txt.').waitFor();
    await runFinished(page);
    await rm(join(app.project, 'two.txt'));

    await sendTask(page, 'Write two.txt');
    const second = page.getByRole('article', { name: 'Approval for shell' }).nth(1);
    await second.waitFor();
    // Keyboard answers go to the first pending card, not to a focused text field.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('a');
    // The first choice is the exact rule, and it is the one picked.
    const summary = second.locator('.always-summary').first();
    await summary.waitFor();
    expect(await summary.innerText()).toBe(
      `${SECOND_COMMAND} exactly would have run 1 earlier call (in this session) without asking, e.g. ${SECOND_COMMAND}`,
    );
    expect(await second.getByRole('radio').first().isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    await second.getByText('Always allowed in this project').waitFor();
    await page.getByText('Wrote two.txt.').nth(1).waitFor();
    await runFinished(page);
    const stored = await new JsonFilePermissionsStore(app.dataDir).load(app.project);
    expect(stored.rules.map((r) => r.rule)).toContainEqual({
      kind: 'command',
      argv: ['touch', 'two.txt'],
      match: 'exact',
    });
    const tool = page.getByRole('article', { name: 'Tool call shell' }).nth(1);
    expect(await tool.locator('.approval-outcome-line').innerText()).toMatch(
      /^Always allowed in this project · \d\d:\d\d$/,
    );

    expect(existsSync(join(app.project, 'two.txt'))).toBe(true);
    // A whole run is undone only after its files were listed.
    await page.getByRole('button', { name: 'Revert this run…' }).nth(1).click();
    const confirm = page.getByRole('group', { name: 'Revert this run: files' });
    expect(await confirm.locator('.revert-files li').allInnerTexts()).toEqual(['two.txt']);
    expect(existsSync(join(app.project, 'two.txt'))).toBe(true);
    await confirm.getByRole('button', { name: 'Revert 1 file' }).click();
    await page.getByRole('button', { name: 'Run reverted' }).waitFor();
    expect(existsSync(join(app.project, 'two.txt'))).toBe(false);

    // The stored rule now runs the same command without a card, and the card says why.
    await sendTask(page, 'Write two.txt');
    await page.getByText('Wrote two.txt.').nth(2).waitFor();
    await runFinished(page);
    expect(await page.getByRole('article', { name: 'Approval for shell' }).count()).toBe(2);
    const third = page.getByRole('article', { name: 'Tool call shell' }).nth(2);
    expect(await third.locator('.provenance').innerText()).toBe(
      `Ran because: this project's rule for ${SECOND_COMMAND} exactly`,
    );
    expect(existsSync(join(app.project, 'two.txt'))).toBe(true);
    await page.context().close();
  });

  it('(f) widens an "Always allow" rule only when the person picks it, and says what it covers', async () => {
    const { page, problems } = await app.openProject();
    await sendTask(page, 'Make folder one');
    const card = page.getByRole('article', { name: 'Approval for shell' });
    await card.waitFor();
    // Each answer says what it covers before it is clicked.
    const scopes = await card.locator('.choice-scope').allInnerTexts();
    expect(scopes.slice(0, 4)).toEqual([
      'this call only',
      `${DIR_ONE} exactly in this session`,
      `${DIR_ONE} exactly for 30 minutes`,
      `${DIR_ONE} exactly in this project`,
    ]);
    await card.getByRole('button', { name: /^Always allow in this project/ }).click();
    const confirm = card.getByLabel('Always allow: the rule to store');
    await confirm.locator('.always-summary').first().waitFor();
    // Exact first and picked; `mkdir *` is not offered, with the reason.
    const radios = confirm.getByRole('radio');
    expect(await radios.count()).toBe(3);
    expect(await radios.first().isChecked()).toBe(true);
    await confirm.getByText('Not offered (1)').click();
    await confirm.getByText('would cover every use of').waitFor();
    const wide = confirm.getByRole('radio', { name: /^mkdir -p \* \(/ });
    await wide.check();
    expect(await radios.first().isChecked()).toBe(false);
    expect(await confirm.locator('.always-choice.picked').innerText()).toContain(
      'accepts mkdir -p alone or followed by any further words, options included',
    );
    await saveScreenshot(page, 'always-rule-widen.png');
    // Enter on the picked choice stores it, like the button.
    await page.keyboard.press('Enter');
    await card.getByText('Always allowed in this project').waitFor();
    await page.getByText('Made out/one.').waitFor();
    await runFinished(page);
    const stored = await new JsonFilePermissionsStore(app.dataDir).load(app.project);
    expect(stored.rules.map((r) => r.rule)).toContainEqual({
      kind: 'command',
      argv: ['mkdir', '-p'],
      match: 'prefix',
    });

    // The widened rule runs other words without a card, and says so.
    await sendTask(page, 'Make folder two');
    await page.getByText('Made out/two.').waitFor();
    await runFinished(page);
    expect(await page.getByRole('article', { name: 'Approval for shell' }).count()).toBe(1);
    const tool = page.getByRole('article', { name: 'Tool call shell' }).nth(1);
    expect(await tool.locator('.provenance').innerText()).toBe(
      "Ran because: this project's rule for mkdir -p * (mkdir -p with any further words)",
    );
    expect(existsSync(join(app.project, 'out', 'two'))).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
