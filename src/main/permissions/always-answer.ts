// An "always" answer that widens rules: checked against what the card offered, then applied.
import { widenedRule, type CommandRule, type PermissionRule } from './permission-rule';
import { checkWidening } from './rule-widening';
import { showWords } from './shown-words';

/**
 * Checks the widenings an answer carries against the rules its card offered: each must be a
 * prefix of an offered command's words, pass `checkWidening`, and be the only one for that
 * command. The window is untrusted: this is how main refuses argv the card never showed.
 */
export function widenProblem(
  widen: readonly (readonly string[])[],
  offered: readonly PermissionRule[],
): string | null {
  const commands = offered.filter((r): r is CommandRule => r.kind === 'command');
  const widenedBy = new Map<CommandRule, readonly string[]>();
  for (const prefix of widen) {
    const targets = commands.filter((rule) => isPrefix(prefix, rule.argv));
    if (targets.length === 0) {
      return `${showWords(prefix)} is not the start of a command this card offered to store`;
    }
    const check = checkWidening(prefix);
    if (!check.ok) return check.reason;
    for (const rule of targets) {
      if (widenedBy.has(rule)) return `two widenings were given for ${showWords(rule.argv)}`;
      widenedBy.set(rule, prefix);
    }
  }
  return null;
}

/** The rules to store: each offered rule, widened where the person chose a (checked) prefix. */
export function applyWidening(
  offered: readonly PermissionRule[],
  widen: readonly (readonly string[])[],
): PermissionRule[] {
  return offered.map((rule) => {
    if (rule.kind !== 'command') return rule;
    const prefix = widen.find((p) => isPrefix(p, rule.argv));
    return prefix ? widenedRule(prefix) : rule;
  });
}

function isPrefix(prefix: readonly string[], argv: readonly string[]): boolean {
  return prefix.length > 0 && prefix.length <= argv.length && prefix.every((w, i) => argv[i] === w);
}
