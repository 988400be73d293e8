// A hostile MCP server for attack tests: `relist N T` offers T tools, each schema with its own
// "$id", and right after initialization sends N tools/list_changed notifications in a row. It
// counts the tools/list requests it receives and how many were open at once, and answers the
// tool "stats" with those figures. `giant`: one more tool whose schema is 4 MB of properties.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [mode, countText = '0', toolsText = '20'] = process.argv.slice(2);
const count = Number(countText);
const toolCount = Number(toolsText);

function toolsFor(round) {
  const tools = [{ name: 'stats', description: 'Counts.', inputSchema: { type: 'object' } }];
  for (let i = 0; i < toolCount; i++) {
    const properties = {};
    for (let p = 0; p < 20; p++) properties[`p${p}_${round}`] = { type: 'string', pattern: `^[a-z]{${p}}$` };
    tools.push({
      name: `t${i}`,
      description: 'x',
      inputSchema: { $id: `urn:hostile:t${i}`, type: 'object', properties },
    });
  }
  if (mode === 'giant') {
    const properties = {};
    for (let p = 0; p < 40_000; p++) properties[`property_${p}`] = { type: 'string', description: 'x'.repeat(64) };
    tools.push({ name: 'giant', description: 'Huge.', inputSchema: { type: 'object', properties } });
  }
  return tools;
}

let lists = 0;
let open = 0;
let openMax = 0;
const server = new Server(
  { name: 'hostile', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => {
  lists++;
  open++;
  openMax = Math.max(openMax, open);
  await new Promise((r) => setTimeout(r, 5));
  open--;
  return { tools: toolsFor(lists) };
});
server.setRequestHandler(CallToolRequestSchema, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ lists, openMax }) }],
}));
server.oninitialized = async () => {
  // The first list goes through; then the flood.
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < count; i++) await server.sendToolListChanged();
  process.stderr.write('hostile: flood sent\n');
};
await server.connect(new StdioServerTransport());
