// Whether every part of a parsed command is safe or allowed by a rule or a grant. A compound
// command runs without asking only when EVERY sub-command is covered: `npm test; rm -rf ~` is
// two parts, and a rule for `npm test` covers only the first.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CommandPart } from '../../shared/tool-types';
import type { Grant } from './grant-book';
import { describeRule, ruleMatchesPart, type PermissionRule } from './permission-rule';
import type { CommandClassificationView, PolicyDeps } from './policy-deps';
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
 * Covers a classified command. Reasons that belong to no part (a loop, an `if`) describe
 * structure no rule speaks for, so then nothing is covered.
 */
export async function coverClassification(
  classification: CommandClassificationView,
  rules: readonly PermissionRule[],
  grants: readonly Grant[],
  grantsPaused: boolean,
  folder: string,
  deps: PolicyDeps,
): Promise<{
  readonly coverage: CommandCoverage;
  readonly structural: readonly string[];
  readonly coverable: ReadonlySet<CommandPart>;
}> {
  const { parts } = classification;
  const structural = classification.parsed
    ? classification.reasons.filter((r) => !parts.some((p) => p.reasons.includes(r)))
    : ['the command could not be parsed'];
  const coverable = new Set<CommandPart>();
  if (structural.length === 0) {
    for (const part of parts) {
      if (!part.safe && (await isCoverablePart(part, folder, deps))) coverable.add(part);
    }
  }
  const coverage = coverCommand(parts, rules, grants, grantsPaused, (p) => coverable.has(p));
  return { coverage, structural, coverable };
}

/**
 * A rule or grant speaks for a program and its words only. The part's words are classified
 * again on their own (quoted, so nothing expands): any reason the part has beyond those comes
 * from a redirection, an expansion, a variable or a background `&`, and then no rule covers it.
 * Nor does one cover a word naming a path outside the folder.
 */
export async function isCoverablePart(
  part: CommandPart,
  folder: string,
  deps: PolicyDeps,
): Promise<boolean> {
  if (part.argv.length === 0) return false;
  if (part.argv.slice(1).some((word) => namesPathOutside(folder, word))) return false;
  const alone = await deps.classifyCommand(part.argv.map(shellQuote).join(' '), folder);
  const only = alone.parts[0];
  if (!alone.parsed || alone.parts.length !== 1 || !only) return false;
  if (only.argv.length !== part.argv.length || !only.argv.every((w, i) => w === part.argv[i])) {
    return false;
  }
  const wordReasons = new Set(only.reasons);
  return part.reasons.every((r) => wordReasons.has(r));
}

/** Lexically: `~`, an absolute path or `..` steps that leave the folder (also after `--opt=`). */
export function namesPathOutside(folder: string, word: string): boolean {
  const eq = word.indexOf('=');
  const candidates = word.startsWith('-') && eq > 0 ? [word, word.slice(eq + 1)] : [word];
  return candidates.some((w) => {
    if (w.startsWith('~')) return true;
    if (!w.startsWith('/') && !w.split('/').includes('..')) return false;
    const rel = relative(folder, resolve(folder, w));
    return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  });
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
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
