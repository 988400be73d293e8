// Why a call ran, in words the trace and the transcript show ("you allowed it at 14:02").
import type { Grant } from './grant-book';
import { describeRule, type PermissionRule } from './permission-rule';

export const PROVENANCE_READ_ONLY = 'read-only';
export const PROVENANCE_AUTONOMOUS = 'autonomous mode in the sandbox';
export const PROVENANCE_AUTO_EDIT = 'auto-accept edits mode';

/** Local wall-clock time as HH:MM, the way a person remembers clicking. */
export function clockTime(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function allowedAt(ms: number): string {
  return `you allowed it at ${clockTime(ms)}`;
}

export function editedAllowedAt(ms: number): string {
  return `you edited it and allowed your version at ${clockTime(ms)}`;
}

export function ruleProvenance(rule: PermissionRule): string {
  return `this project's rule for ${describeRule(rule)}`;
}

export function grantProvenance(grant: Grant): string {
  const what = describeRule(grant.rule);
  switch (grant.scope.kind) {
    case 'session':
      return `you allowed ${what} for this session at ${clockTime(grant.grantedAt)}`;
    case 'until':
      return `you allowed ${what} at ${clockTime(grant.grantedAt)} until ${clockTime(grant.scope.expiresAt)}`;
  }
}

function pad(n: number): string {
  return n.toString().padStart(2, '0');
}
