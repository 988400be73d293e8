// The person's choices per server, checked the same way wherever they are stored.
import { z } from 'zod';
import { lazyValue } from '../../shared/lazy-value';
import { DEFAULT_MCP_CHOICES, type McpServerChoices } from '../../shared/mcp-types';

/** Built on first use (lazy-value.ts): only when stored choices are read or written. */
export const choicesSchema = lazyValue(() =>
  z
    .object({
      trusted: z.boolean(),
      projectAccess: z.enum(['read-only', 'read-write']),
      network: z.boolean(),
    })
    .strict(),
);

export function choicesOrDefault(
  stored: Readonly<Record<string, McpServerChoices>>,
  name: string,
): McpServerChoices {
  return Object.hasOwn(stored, name) ? (stored[name] ?? DEFAULT_MCP_CHOICES) : DEFAULT_MCP_CHOICES;
}

/** What a change of choices widens, in words, for main's own confirmation dialog. */
export function wideningsOf(before: McpServerChoices, after: McpServerChoices): string[] {
  const widened: string[] = [];
  if (after.trusted && !before.trusted) {
    widened.push('its tools that say they only read will run without asking');
  }
  if (after.projectAccess === 'read-write' && before.projectAccess !== 'read-write') {
    widened.push('it may change files in the project folder');
  }
  if (after.network && !before.network) widened.push('it may reach the network');
  return widened;
}
