// Which rule the "Always allow" confirmation stores: per sub-command, the choice the person
// picked (the exact rule unless they chose a widening). Pure, so it is tested under Node.
import type { AlwaysRuleChoice, AlwaysRulePreview } from '../../../shared/api';
import type { ApprovalAnswer } from '../../../shared/tool-types';

/** Per sub-command, the index of the picked choice; 0 is the rule as offered (exact). */
export type AlwaysSelection = readonly number[];

export function initialSelection(preview: AlwaysRulePreview): AlwaysSelection {
  return preview.choices.map(() => 0);
}

/** A widening the person may pick (refused ones are shown with their reason only). */
export function isSelectable(choice: AlwaysRuleChoice): boolean {
  return choice.refused === null;
}

export function select(
  selection: AlwaysSelection,
  ruleIndex: number,
  choiceIndex: number,
): AlwaysSelection {
  return selection.map((picked, i) => (i === ruleIndex ? choiceIndex : picked));
}

/** The answer to send: `widen` lists the picked prefixes; none when every rule stays exact. */
export function alwaysAnswer(
  preview: AlwaysRulePreview,
  selection: AlwaysSelection,
): ApprovalAnswer {
  const widen = preview.choices.flatMap((choices, i) => {
    const picked = choices[selection[i] ?? 0];
    return picked && picked.widen !== null && isSelectable(picked) ? [picked.widen] : [];
  });
  return widen.length > 0 ? { kind: 'allow-always', widen } : { kind: 'allow-always' };
}
