// MCP in the window: the built renderer in real Chromium over the real handlers and agent. A
// project's .mcp.json naming server-everything is shown in the acceptance dialog with its exact
// command line and starts nothing until accepted (and main's own dialog said yes); then the
// status bar shows it ready, an untrusted "read-only" tool asks, its image reaches the trace, and
// Settings shows the server's state, confinement and tools. Waits are on DOM state, never time.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/main/shell/sandbox-probe';
import { EVERYTHING_ENTRY } from '../src/test-support/mcp-servers';
import { openAppPage, saveScreenshot } from './support/app-page';
import { startRealAgent, type RealAgent } from './support/agent-window';

let agent: RealAgent;

beforeAll(async () => {
  agent = await startRealAgent(
    'mcp',
    'shop',
    [
      { toolCalls: [{ name: 'mcp__everything__get-tiny-image', arguments: {} }] },
      { text: 'Here is the logo.' },
    ],
    {
      prepare: (project) =>
        writeFile(
          join(project, '.mcp.json'),
          JSON.stringify({
            mcpServers: { everything: { command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] } },
          }),
        ),
    },
  );
});

afterAll(() => agent?.close());

describe('MCP servers in the window', () => {
  it('accepts a project .mcp.json, asks for an untrusted tool, and shows its image', async () => {
    const { page, problems } = await openAppPage(
      agent.setup.browser,
      agent.setup.web.url,
      agent.bridge.url,
    );
    await page.getByRole('button', { name: 'Choose a folder' }).click();

    const dialog = page.getByRole('dialog', { name: 'This project names MCP servers' });
    await dialog.waitFor();
    const proposed = dialog.getByRole('list', { name: 'Proposed MCP servers' });
    expect(await proposed.locator('pre.command').innerText()).toBe(
      `node ${EVERYTHING_ENTRY} stdio`,
    );
    // Nothing runs before the person accepts: no MCP item in the status bar yet.
    expect(await page.getByRole('button', { name: /^MCP servers:/ }).count()).toBe(0);
    await saveScreenshot(page, 'mcp-accept-dialog.png');

    await dialog.getByRole('button', { name: 'Accept and start' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Main asked in its own dialog, with the exact command line.
    expect(agent.bridge.confirmations.at(-1)?.detail).toContain(
      `• everything: node ${EVERYTHING_ENTRY} stdio`,
    );
    await page.getByRole('button', { name: 'MCP servers: 1/1 ready' }).waitFor();

    await page.getByRole('textbox', { name: 'Task' }).fill('Show me the logo');
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    const card = page.getByRole('article', {
      name: 'Approval for mcp__everything__get-tiny-image',
    });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/you have not marked this server trusted/);
    await card.getByRole('button', { name: /^Allow once/ }).click();
    await page.getByText('Here is the logo.').waitFor();

    const tool = page.getByRole('article', { name: 'Tool call mcp__everything__get-tiny-image' });
    const image = tool.getByRole('img', { name: 'Image 1 the tool returned (image/png)' });
    await image.waitFor();
    expect(
      await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBe(20);
    await saveScreenshot(page, 'mcp-image-in-trace.png');

    await page.getByRole('button', { name: 'MCP servers: 1/1 ready' }).click();
    const server = page.getByRole('listitem', { name: 'MCP server everything' });
    await server.waitFor();
    expect(await server.getByRole('status').innerText()).toBe('Ready');
    expect(await server.locator('.sandbox-line').innerText()).toMatch(
      (await probeSandbox()).available
        ? /^bubblewrap: .*project read-only, network off/
        : /^Not sandboxed/,
    );
    await server.getByText(/^\d+ tools$/).click();
    const tools = server.getByRole('list', { name: 'Tools of everything' });
    expect(await tools.getByText('mcp__everything__echo').count()).toBe(1);
    await saveScreenshot(page, 'mcp-settings.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
