// Prints 50 MB to stderr (honouring backpressure, as a real chatty server would), then serves
// one tool over stdio: a flood must neither block the server nor grow the client's memory.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const TOTAL = 50 * 1024 * 1024;
const line = `${'x'.repeat(1023)}\n`;
const chunk = line.repeat(64);

async function flood() {
  let written = 0;
  while (written < TOTAL) {
    if (!process.stderr.write(chunk)) await new Promise((r) => process.stderr.once('drain', r));
    written += chunk.length;
  }
  process.stderr.write('fixture: flood done\n');
}

await flood();
const server = new McpServer({ name: 'flood', version: '1.0.0' });
server.registerTool(
  'ping',
  { description: 'Answers pong.', annotations: { readOnlyHint: true } },
  async () => ({ content: [{ type: 'text', text: 'pong' }] }),
);
await server.connect(new StdioServerTransport());
