// tools/list, page by page, read leniently: one malformed tool is reported and left out instead
// of failing the whole list (the SDK's own listTools would reject it all, and would compile every
// output schema on the way).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';
import { loadArgumentValidator } from '../tools/registry';
import { mcpSdk } from './mcp-sdk';

const MAX_PAGES = 50;
const MAX_TOOLS = 1000;

/** Built on first use (lazy-value.ts): when a server is first asked for its tools. */
const lenientPage = lazyValue(() =>
  z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }).passthrough(),
);

export interface ListedTools {
  readonly tools: readonly McpToolDefinition[];
  readonly problems: readonly string[];
}

export async function listAllTools(client: Client, timeoutMs: number): Promise<ListedTools> {
  // What this returns is checked by the registry's ajv (McpManager's schemaProblem) and then
  // called through it: loaded before any of it exists.
  await loadArgumentValidator();
  const tools: McpToolDefinition[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      lenientPage(),
      { timeout: timeoutMs },
    );
    for (const raw of result.tools) {
      const parsed = mcpSdk().ToolSchema.safeParse(raw);
      const name = nameOf(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        problems.push(`tool ${name} left out: ${where}${issue?.message ?? 'not a tool'}`);
        continue;
      }
      if (seen.has(parsed.data.name)) {
        problems.push(`tool ${name} left out: the server lists it twice`);
        continue;
      }
      if (tools.length >= MAX_TOOLS) {
        problems.push(`tools after the first ${MAX_TOOLS} were left out`);
        return { tools, problems };
      }
      seen.add(parsed.data.name);
      tools.push(parsed.data);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) return { tools, problems };
  }
  problems.push(`the tool list was cut after ${MAX_PAGES} pages`);
  return { tools, problems };
}

function nameOf(raw: unknown): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `"${name.slice(0, 80)}"` : '(without a name)';
}
