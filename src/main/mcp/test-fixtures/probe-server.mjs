// A scripted MCP server for the client's edge cases, on the SDK's low-level Server so it can
// send exactly what a test needs: a call that waits to be cancelled, one that never answers, a
// tool whose schema does not compile, error results, protocol errors, mixed content, its own
// environment, and a tool list that changes.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

const object = (properties = {}, required = []) => ({ type: 'object', properties, required });
const tools = [
  { name: 'wait', description: 'Waits until cancelled.', inputSchema: object() },
  { name: 'stall', description: 'Never answers.', inputSchema: object() },
  {
    name: 'broken',
    description: 'Its schema does not compile.',
    inputSchema: { type: 'object', properties: { x: { type: 'no-such-type' } } },
  },
  { name: 'fail', description: 'Reports an error result.', inputSchema: object() },
  { name: 'refuse', description: 'Answers with a protocol error.', inputSchema: object() },
  { name: 'mixed', description: 'Mixed content.', inputSchema: object() },
  {
    name: 'env',
    description: 'Its environment variable names.',
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
  { name: 'grow', description: 'Adds a tool and says so.', inputSchema: object() },
  { name: 'crash', description: 'Exits the server mid-call.', inputSchema: object() },
];

const server = new Server(
  { name: 'probe', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  switch (request.params.name) {
    case 'wait':
      return new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          process.stderr.write(`fixture: wait was cancelled by the client\n`);
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      });
    case 'stall':
      return new Promise(() => {});
    case 'fail':
      return {
        isError: true,
        content: [{ type: 'text', text: 'the table "users" does not exist' }],
      };
    case 'refuse':
      throw new McpError(ErrorCode.InvalidParams, 'query must not be empty');
    case 'mixed':
      return {
        content: [
          { type: 'text', text: 'three rows' },
          {
            type: 'resource_link',
            uri: 'file:///data/rows.csv',
            name: 'rows.csv',
            mimeType: 'text/csv',
          },
          {
            type: 'resource',
            resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'embedded memo' },
          },
          { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
        ],
        structuredContent: { rows: 3 },
      };
    case 'env':
      return { content: [{ type: 'text', text: Object.keys(process.env).sort().join(',') }] };
    case 'grow':
      if (!tools.some((t) => t.name === 'grown')) {
        tools.push({ name: 'grown', description: 'Added later.', inputSchema: object() });
        await server.sendToolListChanged();
      }
      return { content: [{ type: 'text', text: 'grown' }] };
    case 'crash':
      process.stderr.write('fixture: crashing on purpose\n');
      process.exit(1);
      break;
    default:
      throw new McpError(ErrorCode.MethodNotFound, `no tool ${request.params.name}`);
  }
});
await server.connect(new StdioServerTransport());
