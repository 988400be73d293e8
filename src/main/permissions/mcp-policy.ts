// How the policy judges a call of an MCP tool. The server's annotations say what a tool does,
// but only a server the person marked trusted may lower the bar with them: its read-only tools
// run like built-in reads. An untrusted server's "read-only" tool asks like any other until a
// rule or grant allows it (per tool, or for the whole server). Autonomous mode runs a tool only
// where its server runs inside the sandbox; tools that reach the open world follow the project's
// network setting. Rules, grants and provenance work as for built-in tools.
import type { PermissionMode } from '../../shared/tool-types';
import type { McpOrigin } from '../tools/tool';
import { ruleCoversCall } from './permission-rule';
import type { PolicyInput } from './policy';
import { ask, isTaintPaused, refuse, refuseReadOnly, run, type Verdict } from './policy-verdict';
import { PROVENANCE_AUTONOMOUS, grantProvenance, ruleProvenance } from './provenance';

export function mcpReadProvenance(server: string): string {
  return `read-only by the annotations of the trusted MCP server \`${server}\``;
}

export function decideMcp(input: PolicyInput, mode: PermissionMode, origin: McpOrigin): Verdict {
  const what = `the MCP tool \`${origin.tool}\` of the server \`${origin.server}\``;
  if (input.effect === 'read' && origin.trusted) {
    return run(
      [`${what} only reads (its annotations say so, and you trust this server)`],
      mcpReadProvenance(origin.server),
      'read-only',
    );
  }
  if (mode === 'read-only') return refuseReadOnly(what);
  if (input.effect === 'network' && input.network === 'off') {
    return refuse(
      [`${what} reaches the open world and the network is off for this project`],
      `${what} was not run: it reaches the open world and the network is off for this project.`,
    );
  }
  if (mode === 'autonomous') {
    if (input.effect === 'network' && input.network === 'allow') {
      return run(
        [`${what} reaches the open world: the project allows the network (autonomous)`],
        PROVENANCE_AUTONOMOUS,
        'mode',
      );
    }
    if (input.effect !== 'network' && origin.sandboxed) {
      return run(
        [`${what} runs in its server, inside the sandbox (autonomous)`],
        PROVENANCE_AUTONOMOUS,
        'mode',
      );
    }
  }

  const rule = input.rules.find((r) => ruleCoversCall(r, input.toolName, origin));
  if (rule) {
    return { ...run([ruleProvenance(rule)], ruleProvenance(rule), 'rule'), usedRules: [rule] };
  }
  // Whatever it claims, an MCP call may act: its grants pause once outside content came in.
  const paused = isTaintPaused('exec', input.taintedBy);
  const grant = input.grants.find((g) => ruleCoversCall(g.rule, input.toolName, origin));
  if (grant && !paused) {
    return {
      ...run([grantProvenance(grant)], grantProvenance(grant), 'grant'),
      usedGrants: [grant],
    };
  }
  return ask(askReasons(input, mode, origin, what, grant !== undefined), [
    // Bound to the definition that runs now: a changed server under this name is asked again.
    { kind: 'tool', tool: input.toolName, definition: origin.definition },
  ]);
}

function askReasons(
  input: PolicyInput,
  mode: PermissionMode,
  origin: McpOrigin,
  what: string,
  hasGrant: boolean,
): string[] {
  const reasons = [`${what} needs your approval (${input.effect}; ${origin.annotations})`];
  if (input.effect === 'read') {
    reasons.push(
      'the server says it only reads, but you have not marked this server trusted, so its annotations cannot lower the bar',
    );
  }
  if (origin.destructive) reasons.push('the server marks this tool destructive');
  reasons.push(
    origin.sandboxed
      ? 'its server runs inside the sandbox'
      : 'its server does not run inside the sandbox',
  );
  if (mode === 'autonomous' && input.effect === 'network') {
    reasons.push('the network follows the project setting, which is to ask');
  } else if (mode === 'autonomous') {
    reasons.push('autonomous mode runs MCP tools only of servers inside the sandbox');
  }
  if (input.taintedBy !== undefined) {
    reasons.push(
      hasGrant
        ? `your grant for this tool is paused for the rest of this session: the conversation took in outside content ${input.taintedBy}`
        : `the conversation took in outside content ${input.taintedBy}`,
    );
  }
  return reasons;
}
