// The shapes every branch of the policy returns (run with a basis, ask with what may be stored,
// refuse with the model's message), shared by policy.ts and mcp-policy.ts.
import type { ToolEffect } from '../../shared/tool-types';
import type { RunBasis } from '../tools/tool';
import { readOnlyRefusal } from './modes';
import type { PermissionRule } from './permission-rule';
import type { PolicyDecision } from './policy';

export type Verdict = Omit<PolicyDecision, 'mode' | 'grantable' | 'usedRules' | 'usedGrants'> &
  Partial<Pick<PolicyDecision, 'grantable' | 'usedRules' | 'usedGrants'>>;

export function run(reasons: readonly string[], provenance: string, basis: RunBasis): Verdict {
  return { decision: 'run', reasons, provenance, basis };
}

export function ask(reasons: readonly string[], grantable: readonly PermissionRule[]): Verdict {
  return { decision: 'ask', reasons, grantable };
}

export function refuse(reasons: readonly string[], refusal: string): Verdict {
  return { decision: 'refuse', reasons, refusal };
}

export function refuseReadOnly(what: string): Verdict {
  return refuse(['read-only mode: only reads run'], readOnlyRefusal(what));
}

/** After outside content came in, grants for commands, network and MCP calls pause. */
export function isTaintPaused(effect: ToolEffect, taintedBy: string | undefined): boolean {
  return taintedBy !== undefined && (effect === 'exec' || effect === 'network');
}
