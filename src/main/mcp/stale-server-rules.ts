// Accepting a changed `.mcp.json`: the rules and grants given for a project server's name stay
// with the definition they were given for (the policy already ignores them for another one), and
// are removed on acceptance, so Settings and the acceptance dialog say what the person loses.
import type { Grant } from '../permissions/grant-book';
import type { PermissionRule } from '../permissions/permission-rule';
import type { StoredRule } from '../permissions/project-permissions-store';
import type { NamedServerSpec } from './mcp-config';
import { serverDefinition } from './mcp-config';
import { MCP_TOOL_PREFIX } from './mcp-tool';

export interface StaleServerRules {
  readonly server: string;
  readonly rules: number;
  readonly grants: number;
}

/** The servers whose name a rule or grant is for, with the definition it needs; else null. */
function staleFor(rule: PermissionRule, definitions: ReadonlyMap<string, string>): string | null {
  const server =
    rule.kind === 'mcp-server'
      ? rule.server
      : rule.kind === 'tool'
        ? serverOfToolName(rule.tool)
        : null;
  if (server === null) return null;
  const definition = definitions.get(server);
  if (definition === undefined) return null;
  return rule.kind !== 'command' && rule.definition === definition ? null : server;
}

/** `mcp__<server>__<tool>`: server names never contain `__`, so the first one ends the name. */
function serverOfToolName(tool: string): string | null {
  if (!tool.startsWith(MCP_TOOL_PREFIX)) return null;
  const end = tool.indexOf('__', MCP_TOOL_PREFIX.length);
  return end > MCP_TOOL_PREFIX.length ? tool.slice(MCP_TOOL_PREFIX.length, end) : null;
}

/**
 * Which rules and grants for `servers` (the project's servers as they will run) were given for
 * another definition, or before definitions were kept; `keepRule` / `keepGrant` say what stays.
 */
export function staleServerRules(
  servers: readonly NamedServerSpec[],
  rules: readonly StoredRule[],
  grants: readonly Grant[] = [],
): {
  readonly stale: readonly StaleServerRules[];
  readonly keepRule: (stored: StoredRule) => boolean;
  readonly keepGrant: (grant: Grant) => boolean;
} {
  const definitions = new Map(servers.map((s) => [s.name, serverDefinition(s.spec)]));
  const counts = new Map<string, { rules: number; grants: number }>();
  const count = (server: string | null, what: 'rules' | 'grants'): void => {
    if (server === null) return;
    const entry = counts.get(server) ?? { rules: 0, grants: 0 };
    entry[what] += 1;
    counts.set(server, entry);
  };
  for (const stored of rules) count(staleFor(stored.rule, definitions), 'rules');
  for (const grant of grants) count(staleFor(grant.rule, definitions), 'grants');
  return {
    stale: [...counts].map(([server, c]) => ({ server, ...c })),
    keepRule: (stored) => staleFor(stored.rule, definitions) === null,
    keepGrant: (grant) => staleFor(grant.rule, definitions) === null,
  };
}

/** "2 rules for docs will be removed because …", one line per server. */
export function describeStaleRules(stale: readonly StaleServerRules[]): string[] {
  return stale.map(({ server, rules, grants }) => {
    const parts = [
      ...(rules > 0 ? [`${rules} rule${rules === 1 ? '' : 's'}`] : []),
      ...(grants > 0 ? [`${grants} grant${grants === 1 ? '' : 's'}`] : []),
    ];
    const one = rules + grants === 1;
    return (
      `${parts.join(' and ')} for ${server} will be removed because its definition ` +
      '(command, arguments, environment, working folder, URL or headers) is not the one ' +
      `${one ? 'it was' : 'they were'} given for`
    );
  });
}
