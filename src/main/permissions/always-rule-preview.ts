// What the person chooses from before "Always allow" is stored: per sub-command the exact rule
// and each widening (`npm test *`), what each accepts in words, and which earlier calls of this
// project each would have run without asking. Shared by the window and the CLI.
import type { AlwaysRuleChoice, AlwaysRulePreview } from '../../shared/api';
import type { RunEvent } from '../../shared/events';
import { sessionsDir } from '../store/transcript';
import {
  describeAccepted,
  describeRule,
  widenedRule,
  type PermissionRule,
} from './permission-rule';
import type { PolicyDeps } from './policy-deps';
import { earlierCallsFromEvents, loadProjectTranscripts, previewRules } from './rule-preview';
import type { EarlierCall } from './rule-preview';
import { wideningChoices } from './rule-widening';

export const NOTHING_TO_STORE =
  'No rule can be stored for this call: it will be asked again next time.';

/**
 * Earlier calls of this project, from its transcripts; the pending request is not one. Calls of
 * the session that holds the pending request are marked as this session's.
 */
export async function loadEarlierCalls(
  dataDir: string,
  folder: string,
  pendingRequestId?: string,
): Promise<EarlierCall[]> {
  const pending = (e: RunEvent): boolean =>
    e.type === 'approval-requested' && e.requestId === pendingRequestId;
  const transcripts = await loadProjectTranscripts(sessionsDir(dataDir, folder));
  return transcripts.flatMap((events) =>
    earlierCallsFromEvents(
      events.filter((e) => !pending(e)),
      pendingRequestId !== undefined && events.some(pending),
    ),
  );
}

interface Candidate {
  readonly rule: PermissionRule;
  readonly widen: readonly string[] | null;
  readonly refused: string | null;
}

function candidatesFor(rule: PermissionRule): Candidate[] {
  const offered: Candidate = { rule, widen: null, refused: null };
  if (rule.kind !== 'command') return [offered];
  return [
    offered,
    ...wideningChoices(rule.argv).map(({ prefix, check }) => ({
      rule: widenedRule(prefix),
      widen: prefix,
      refused: check.ok ? null : check.reason,
    })),
  ];
}

export async function previewAlwaysChoices(
  rules: readonly PermissionRule[],
  calls: readonly EarlierCall[],
  folder: string,
  deps: PolicyDeps,
): Promise<AlwaysRulePreview> {
  if (rules.length === 0) {
    return { rules: [], matched: 0, examples: [], summary: NOTHING_TO_STORE, choices: [] };
  }
  const perRule = rules.map(candidatesFor);
  // Refused widenings are shown with their reason, not previewed.
  const previewed = perRule.flat().filter((c) => c.refused === null);
  const previews = await previewRules(
    previewed.map((c) => c.rule),
    calls,
    folder,
    deps,
  );
  const previewOf = new Map(previewed.map((c, i) => [c, previews[i]]));
  const choices = perRule.map((candidates) =>
    candidates.map((c): AlwaysRuleChoice => {
      const preview = previewOf.get(c);
      return {
        widen: c.widen,
        rule: describeRule(c.rule),
        accepts: describeAccepted(c.rule),
        matched: preview?.matched ?? 0,
        examples: preview?.examples ?? [],
        summary: preview?.summary ?? `Not offered: ${c.refused ?? ''}`,
        refused: c.refused,
      };
    }),
  );
  const offered = choices.map((list) => list[0]).filter((c) => c !== undefined);
  return {
    rules: offered.map((c) => c.rule),
    matched: Math.max(...offered.map((c) => c.matched)),
    examples: [...new Set(offered.flatMap((c) => c.examples))].slice(0, 3),
    summary: offered.map((c) => c.summary).join('; '),
    choices,
  };
}
