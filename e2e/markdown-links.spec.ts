// Issue 11 item 8 in the window: the scripted model's answer, through the REAL agent, holds a
// protocol-relative image (from file:// that is a UNC path: a zero-click beacon), other images,
// relative links and a link whose words name another address. Every request the page makes goes
// through Chromium's request interception: none leaves for any host but the app's own, no image
// is drawn, and no CSP violation is even attempted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppPage, saveScreenshot } from './support/app-page';
import { scriptedTurn, startRealAgent, type RealAgent } from './support/agent-window';

const TASK = 'Show me the diagram';
const ANSWER = [
  'Here it is: ![diagram](//host/share/a.png)',
  '',
  'Also ![logo](https://img.example/logo.png) and ![local](diagram.png).',
  '',
  'Details in [the share](//host/share/b), [the notes](docs/notes.md) and',
  '[https://bank.example/login](https://evil.example/login).',
  '',
  'Real docs: [the manual](https://docs.example/manual). End of answer.',
].join('\n');

let agent: RealAgent;

beforeAll(async () => {
  agent = await startRealAgent(
    'markdown',
    'diagrams',
    scriptedTurn({ [TASK]: [{ text: ANSWER }] }),
  );
});

afterAll(() => agent?.close());

describe("links and images in the agent's answer", () => {
  it('load nothing from anywhere, and show where each one points', async () => {
    const { page, problems } = await openAppPage(
      agent.setup.browser,
      agent.setup.web.url,
      agent.bridge.url,
    );
    const requested: string[] = [];
    await page.route('**/*', (route) => {
      requested.push(route.request().url());
      return route.continue();
    });
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('heading', { name: 'diagrams' }).waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill(TASK);
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    const answer = page.locator('.assistant-text').filter({ hasText: 'End of answer.' });
    await answer.waitFor();

    // Nothing left for another host: not the share, not the image server.
    const appOrigin = new URL(agent.setup.web.url).origin;
    const elsewhere = requested.filter((url) => !url.startsWith(appOrigin));
    expect(elsewhere).toEqual([]);
    expect(requested.some((url) => url.includes('share'))).toBe(false);
    expect(await page.locator('.assistant-text img').count()).toBe(0);

    // What was shown instead: words and addresses as text, one real link per real target.
    const text = await answer.innerText();
    expect(text).toContain('[image: diagram] (//host/share/a.png)');
    expect(text).toContain('[image: logo] (https://img.example/logo.png)');
    expect(text).toContain('the share (//host/share/b)');
    expect(text).toContain('the notes (docs/notes.md)');
    expect(text).toContain(
      'https://evil.example/login (the text said “https://bank.example/login”)',
    );
    const hrefs = await answer
      .locator('a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['https://evil.example/login', 'https://docs.example/manual']);
    await saveScreenshot(page, 'answer-links.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
