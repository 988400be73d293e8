// Issue 10, "Secrets stay out of the model's view", in the window: the REAL agent reads a .env
// file for the scripted model. The model's next request holds the masked value only; the card
// says a secret was masked, shows the masked text, and reveals the real one when the person asks.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../src/test-support/scripted-openai-server';
import { openAppPage, saveScreenshot } from './support/app-page';
import { scriptedTurn, startRealAgent, type RealAgent } from './support/agent-window';

const TASK = 'Check the database settings';
const PASSWORD = 'pX7!vQ2-mZ9k';
const SCRIPT: readonly ScriptedTurn[] = [
  { toolCalls: [{ name: 'read_file', arguments: { path: '.env' } }] },
  { text: 'The settings are in .env.' },
];
const MASKED = 'DB_PASSWORD=[secret masked: value of DB_PASSWORD, 12 chars]';

let agent: RealAgent;

beforeAll(async () => {
  agent = await startRealAgent('secrets', 'service', scriptedTurn({ [TASK]: SCRIPT }), {
    prepare: (project) => writeFile(join(project, '.env'), `DB_HOST=db\nDB_PASSWORD=${PASSWORD}\n`),
  });
});

afterAll(() => agent?.close());

describe('a secret in a file the agent reads', () => {
  it('is masked for the model, marked on the card, and shown to the person on request', async () => {
    const { page, problems } = await openAppPage(
      agent.setup.browser,
      agent.setup.web.url,
      agent.bridge.url,
    );
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('heading', { name: 'service' }).waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill(TASK);
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    await page.getByText('The settings are in .env.').waitFor();

    const sent = JSON.stringify(agent.openai.chatBodies()[1]?.messages);
    expect(sent).toContain(MASKED);
    expect(sent).not.toContain(PASSWORD);

    const card = page.getByRole('article', { name: 'Tool call read_file' });
    await card.getByText('A secret was masked for the agent: value of DB_PASSWORD.').waitFor();
    // The output is one line until the card is opened (issue 13); opened, it shows the mask.
    expect(await card.innerText()).not.toContain(PASSWORD);
    await card.getByRole('button', { name: 'Show the output of read_file' }).click();
    expect(await card.innerText()).toContain(MASKED);
    expect(await card.innerText()).not.toContain(PASSWORD);
    await card.getByRole('button', { name: 'Show them here' }).click();
    await card.getByText(`DB_PASSWORD=${PASSWORD}`).waitFor();
    await saveScreenshot(page, 'secret-revealed.png');
    await card.getByRole('button', { name: 'Hide them' }).click();
    await card.getByText(MASKED).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
