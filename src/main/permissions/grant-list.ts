// The grants a person can see and revoke: this session's, the timed ones, and the project's
// persisted rules, each with when it was last used.
import type { GrantBook } from './grant-book';
import { describeRule, sameRule, type PermissionRule } from './permission-rule';
import { withoutRule, type PermissionsStore } from './project-permissions-store';

export interface GrantEntry {
  /** `grant-N` for session and timed grants, `rule:<n>` for persisted rules. */
  readonly id: string;
  readonly kind: 'session' | 'until' | 'always';
  readonly rule: PermissionRule;
  readonly description: string;
  readonly grantedAt: number;
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
}

export async function listActiveGrants(
  grants: GrantBook,
  store: PermissionsStore,
  folder: string,
  sessionId: string | null,
): Promise<GrantEntry[]> {
  const entries: GrantEntry[] = grants.active(folder, sessionId).map((g) => ({
    id: g.id,
    kind: g.scope.kind,
    rule: g.rule,
    description: describeRule(g.rule),
    grantedAt: g.grantedAt,
    expiresAt: g.scope.kind === 'until' ? g.scope.expiresAt : null,
    lastUsedAt: g.lastUsedAt,
  }));
  const stored = await store.load(folder);
  stored.rules.forEach((r, i) => {
    entries.push({
      id: `rule:${i}`,
      kind: 'always',
      rule: r.rule,
      description: describeRule(r.rule),
      grantedAt: r.createdAt,
      expiresAt: null,
      lastUsedAt: grants.ruleLastUsed(folder, r.rule),
    });
  });
  return entries;
}

/** Revokes a grant or deletes a persisted rule; false when nothing matched. */
export async function revokeGrant(
  grants: GrantBook,
  store: PermissionsStore,
  folder: string,
  entry: Pick<GrantEntry, 'id' | 'rule'>,
): Promise<boolean> {
  if (!entry.id.startsWith('rule:')) return grants.revoke(entry.id);
  const stored = await store.load(folder);
  if (!stored.rules.some((r) => sameRule(r.rule, entry.rule))) return false;
  await store.save(folder, withoutRule(stored, entry.rule));
  return true;
}
