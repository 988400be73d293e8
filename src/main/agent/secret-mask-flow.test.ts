// Issue 10, "Secrets stay out of the model's view", through the real agent: a file read, a
// command's output, a fetched page and an MCP tool's result each carry a secret. The model's next
// request and the transcript's messages hold only the masked text; the trace event marks what was
// masked and keeps the original for the person to reveal.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { eventsOfType, startHarness, type Harness } from '../../test-support/agent-harness';
import { fetchUrlTool } from '../tools/fetch-url';
import { createFileTools } from '../tools/files';
import { createShellTool } from '../tools/shell-tool';
import { defineTool } from '../tools/tool';
import { ShellSessions } from '../shell/shell-sessions';
import { probeSandbox } from '../shell/sandbox-probe';

// Built at run time: no credential-shaped literal in the repository.
const AWS_ID = ['AKIA', 'Q7K2M9X4B8N3V6Z1'].join('');
const GH_TOKEN = ['ghp', '_', 'Q7k3M9x4B8n3V6z1L5c2R8t0Y4u7I1o3P6a9'].join('');
const DB_PASSWORD = 'pX7!vQ2-mZ9k';
const SK = ['sk', '-proj-', 'Q7k3M9x4B8n3V6z1L5c2R8t0Y4u7I1o3P6a9W2e5'].join('');

const mcpVault = defineTool({
  name: 'mcp__vault__read',
  description: 'An MCP tool that returns a stored credential.',
  parameters: Type.Object({ name: Type.String() }),
  effect: 'exec',
  async execute() {
    return `{"name":"deploy","token":"${GH_TOKEN}"}`;
  },
});

describe('secrets in tool output', () => {
  let harness: Harness | undefined;
  let page: Server | undefined;
  afterEach(async () => {
    await harness?.cleanup();
    harness = undefined;
    const server = page;
    page = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('are masked for the model and the transcript, marked and kept for the person', async () => {
    page = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`leaked config: key=${SK}\n`);
    });
    await new Promise<void>((resolve) => page?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/config`;
    const shell = createShellTool({ probe: probeSandbox, sessions: new ShellSessions() });
    harness = await startHarness({
      tools: [...createFileTools(), fetchUrlTool, shell, mcpVault],
      agent: { services: { allowPrivateNetwork: true } },
      turns: [
        {
          toolCalls: [
            { id: 'read', name: 'read_file', arguments: { path: '.env' } },
            { id: 'cmd', name: 'shell', arguments: { command: 'cat aws.txt' } },
            { id: 'web', name: 'fetch_url', arguments: { url } },
            { id: 'mcp', name: 'mcp__vault__read', arguments: { name: 'deploy' } },
          ],
        },
        { text: 'done' },
      ],
    });
    await writeFile(join(harness.folder, '.env'), `DEBUG=1\nDB_PASSWORD=${DB_PASSWORD}\n`);
    await writeFile(join(harness.folder, 'aws.txt'), `aws_access_key_id = ${AWS_ID}\n`);
    expect(await harness.agent.startRun('look').done).toBe('done');

    // The model's view.
    const sent = JSON.stringify(harness.server.chatBodies()[1]?.messages);
    for (const secret of [AWS_ID, GH_TOKEN, DB_PASSWORD, SK]) expect(sent).not.toContain(secret);
    expect(sent).toContain('DB_PASSWORD=[secret masked: value of DB_PASSWORD, 12 chars]');
    expect(sent).toContain('[secret masked: AWS access key, 20 chars]');
    expect(sent).toContain('[secret masked: API key (sk-…), 48 chars]');
    expect(sent).toContain('[secret masked: GitHub token, 40 chars]');
    expect(sent).toContain('DEBUG=1');

    // The trace: marked, and the original kept for the window.
    const results = new Map(eventsOfType(harness.events, 'tool-result').map((e) => [e.callId, e]));
    expect(results.get('read')?.secrets).toEqual([{ kind: 'value of DB_PASSWORD', chars: 12 }]);
    expect(results.get('read')?.unmasked).toContain(`DB_PASSWORD=${DB_PASSWORD}`);
    expect(results.get('cmd')?.secrets).toEqual([{ kind: 'AWS access key', chars: 20 }]);
    expect(results.get('web')?.unmasked).toContain(SK);
    expect(results.get('mcp')?.secrets?.map((s) => s.kind)).toEqual(['GitHub token']);
    for (const event of results.values()) expect(event.output).not.toMatch(/Q7k3M9x4|Q7K2M9X4/);

    // The transcript's messages (what a reopened session sends) hold the masked text only.
    await harness.agent.close();
    const lines = (await readFile(harness.agent.transcriptFile, 'utf8')).trim().split('\n');
    const messages = lines
      .map((line) => JSON.parse(line) as { kind: string; message?: unknown })
      .filter((line) => line.kind === 'message');
    const stored = JSON.stringify(messages);
    for (const secret of [AWS_ID, GH_TOKEN, DB_PASSWORD, SK]) expect(stored).not.toContain(secret);
    expect(stored).toContain('[secret masked: GitHub token, 40 chars]');
  });

  it('leaves output without secrets exactly as it was, with no marks', async () => {
    harness = await startHarness({
      tools: createFileTools(),
      turns: [
        { toolCalls: [{ id: 'r', name: 'read_file', arguments: { path: 'a.txt' } }] },
        { text: 'ok' },
      ],
    });
    await writeFile(
      join(harness.folder, 'a.txt'),
      `commit ${'a1b2c3d4'.repeat(5)}\nTOKEN_TTL=3600\n`,
    );
    expect(await harness.agent.startRun('read').done).toBe('done');
    const [result] = eventsOfType(harness.events, 'tool-result');
    expect(result?.secrets).toBeUndefined();
    expect(result?.unmasked).toBeUndefined();
    expect(result?.output).toContain('TOKEN_TTL=3600');
  });
});
