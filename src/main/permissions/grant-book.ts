// Grants the person gave while working: for this session, or for N minutes. They live in memory
// (a restart forgets them, by design); "always" answers become persisted rules instead.
import type { ToolEffect } from '../../shared/tool-types';
import { ruleKey, sameRule, type PermissionRule } from './permission-rule';

export type GrantScope =
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'until'; readonly expiresAt: number };

export interface Grant {
  readonly id: string;
  /** Real path of the project folder the grant belongs to. */
  readonly folder: string;
  readonly rule: PermissionRule;
  readonly scope: GrantScope;
  /** Effect of the tool it was given for: taint suspends exec and network grants. */
  readonly effect: ToolEffect;
  readonly grantedAt: number;
  readonly lastUsedAt: number | null;
}

export type Clock = () => number;

export class GrantBook {
  private readonly grants = new Map<string, Grant>();
  private nextId = 1;
  /** Last use of persisted rules, keyed by folder and rule (rules themselves live in the store). */
  private readonly ruleUse = new Map<string, number>();

  constructor(private readonly clock: Clock = Date.now) {}

  add(grant: Omit<Grant, 'id' | 'grantedAt' | 'lastUsedAt'>): Grant {
    const existing = this.active(grant.folder, sessionOf(grant.scope)).find(
      (g) => sameRule(g.rule, grant.rule) && sameScopeKind(g.scope, grant.scope),
    );
    if (existing) this.grants.delete(existing.id);
    const added: Grant = {
      ...grant,
      id: `grant-${this.nextId++}`,
      grantedAt: this.clock(),
      lastUsedAt: existing?.lastUsedAt ?? null,
    };
    this.grants.set(added.id, added);
    return added;
  }

  /** Grants that apply now to this folder and session; expired ones are dropped on the way. */
  active(folder: string, sessionId: string | null): readonly Grant[] {
    const now = this.clock();
    const result: Grant[] = [];
    for (const grant of this.grants.values()) {
      if (grant.scope.kind === 'until' && grant.scope.expiresAt <= now) {
        this.grants.delete(grant.id);
        continue;
      }
      if (grant.folder !== folder) continue;
      if (grant.scope.kind === 'session' && grant.scope.sessionId !== sessionId) continue;
      result.push(grant);
    }
    return result;
  }

  /** Every grant of this folder, whatever its session (expired ones are dropped on the way). */
  ofFolder(folder: string): readonly Grant[] {
    const now = this.clock();
    const result: Grant[] = [];
    for (const grant of [...this.grants.values()]) {
      if (grant.scope.kind === 'until' && grant.scope.expiresAt <= now) {
        this.grants.delete(grant.id);
      } else if (grant.folder === folder) {
        result.push(grant);
      }
    }
    return result;
  }

  markUsed(id: string): void {
    const grant = this.grants.get(id);
    if (grant) this.grants.set(id, { ...grant, lastUsedAt: this.clock() });
  }

  markRuleUsed(folder: string, rule: PermissionRule): void {
    this.ruleUse.set(useKey(folder, rule), this.clock());
  }

  ruleLastUsed(folder: string, rule: PermissionRule): number | null {
    return this.ruleUse.get(useKey(folder, rule)) ?? null;
  }

  revoke(id: string): boolean {
    return this.grants.delete(id);
  }

  /** The session is over: its grants go with it. */
  endSession(sessionId: string): void {
    for (const grant of [...this.grants.values()]) {
      if (grant.scope.kind === 'session' && grant.scope.sessionId === sessionId) {
        this.grants.delete(grant.id);
      }
    }
  }
}

function useKey(folder: string, rule: PermissionRule): string {
  return JSON.stringify([folder, ...ruleKey(rule)]);
}

function sessionOf(scope: GrantScope): string | null {
  return scope.kind === 'session' ? scope.sessionId : null;
}

function sameScopeKind(a: GrantScope, b: GrantScope): boolean {
  return a.kind === b.kind;
}
