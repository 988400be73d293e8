// Whether every part of a parsed command is safe or allowed by a rule or a grant. A compound
// command runs without asking only when EVERY sub-command is covered: `npm test; rm -rf ~` is
// two parts, and a rule for `npm test` covers only the first.
import type { CommandPart } from '../../shared/tool-types';
import type { Grant } from './grant-book';
import { describeRule, ruleMatchesPart, type PermissionRule } from './permission-rule';
import type { CommandClassificationView } from './policy-deps';
import { grantProvenance, ruleProvenance } from './provenance';

export interface CommandCoverage {
  readonly covered: boolean;
  /** Parts nothing covers, with the classifier's reasons. */
  readonly uncovered: readonly CommandPart[];
  /** Why each covered unsafe part may run. */
  readonly provenance: readonly string[];
  readonly usedRules: readonly PermissionRule[];
  readonly usedGrants: readonly Grant[];
  /** Grants that would have matched but are paused by taint (for the card's reasons). */
  readonly suspended: readonly Grant[];
}

export function coverCommand(
  parts: readonly CommandPart[],
  rules: readonly PermissionRule[],
  grants: readonly Grant[],
  grantsPaused: boolean,
  /** Whether a rule may cover this part at all (no redirection, expansion, outside path). */
  coverable: (part: CommandPart) => boolean,
): CommandCoverage {
  const uncovered: CommandPart[] = [];
  const provenance: string[] = [];
  const usedRules: PermissionRule[] = [];
  const usedGrants: Grant[] = [];
  const suspended: Grant[] = [];
  for (const part of parts) {
    if (part.safe) continue;
    if (!coverable(part)) {
      uncovered.push(part);
      continue;
    }
    const rule = rules.find((r) => ruleMatchesPart(r, part));
    if (rule) {
      if (!usedRules.includes(rule)) {
        usedRules.push(rule);
        provenance.push(ruleProvenance(rule));
      }
      continue;
    }
    const grant = grants.find((g) => ruleMatchesPart(g.rule, part));
    if (grant && !grantsPaused) {
      if (!usedGrants.includes(grant)) {
        usedGrants.push(grant);
        provenance.push(grantProvenance(grant));
      }
      continue;
    }
    if (grant && !suspended.includes(grant)) suspended.push(grant);
    uncovered.push(part);
  }
  return {
    covered: parts.length > 0 && uncovered.length === 0,
    uncovered,
    provenance,
    usedRules,
    usedGrants,
    suspended,
  };
}

/**
 * Covers a classified command. A rule or grant speaks for a program and its words only: a command
 * with structural reasons (shell syntax outside the grammar, hidden characters) is never covered,
 * nor is a part whose reasons go beyond its words (a path outside, a wildcard, a redirection).
 */
export function coverClassification(
  classification: CommandClassificationView,
  rules: readonly PermissionRule[],
  grants: readonly Grant[],
  grantsPaused: boolean,
): {
  readonly coverage: CommandCoverage;
  readonly structural: readonly string[];
  readonly coverable: ReadonlySet<CommandPart>;
} {
  const { parts } = classification;
  const structural = classification.parsed
    ? classification.structural
    : ['the command could not be parsed'];
  const coverable = new Set<CommandPart>(
    structural.length === 0 ? parts.filter((part) => !part.safe && part.coverable === true) : [],
  );
  const coverage = coverCommand(parts, rules, grants, grantsPaused, (p) => coverable.has(p));
  return { coverage, structural, coverable };
}

/** Reasons for the card: each uncovered part with why the classifier would not run it alone. */
export function uncoveredReasons(coverage: CommandCoverage): string[] {
  return coverage.uncovered.map((part) => {
    const why = part.reasons.length > 0 ? part.reasons.join('; ') : 'not a known read-only command';
    return `\`${part.text}\`: ${why}`;
  });
}

export function suspendedReasons(coverage: CommandCoverage, taintedBy: string): string[] {
  return coverage.suspended.map(
    (g) =>
      `your grant for ${describeRule(g.rule)} is paused for the rest of this session: the conversation took in outside content ${taintedBy}`,
  );
}
