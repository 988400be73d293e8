// After "a" in the terminal: which rule to store for each sub-command. Enter keeps the rule as
// shown (its exact words); a number picks a widening (`npm test *`) the engine allows. The
// choices, with what each accepts and which earlier calls it would have run, come from main's
// rule preview, so the terminal and the window offer the same thing.
import type { AlwaysRuleChoice, AlwaysRulePreview } from '../shared/api';
import type { ApprovalAnswer } from '../shared/tool-types';

/** One line typed by the person, or why none will come. */
export type PromptRead =
  | { readonly kind: 'line'; readonly text: string }
  | { readonly kind: 'closed' }
  | { readonly kind: 'aborted' };

export interface AlwaysPromptIo {
  readonly write: (text: string) => void;
  readonly readLine: () => Promise<PromptRead>;
  /** Shows text the model controls (rule words) safely on the terminal. */
  readonly line: (text: string) => string;
}

/** The rule lines printed for one sub-command; numbers are offered choices only. */
export function choiceLines(
  choices: readonly AlwaysRuleChoice[],
  line: (text: string) => string,
): string[] {
  const lines: string[] = [];
  let number = 0;
  for (const choice of choices) {
    if (choice.refused !== null) continue;
    number++;
    lines.push(`    [${number}] ${line(choice.rule)}${number === 1 ? ' (Enter)' : ''}`);
    lines.push(`        ${line(choice.accepts)}`);
    lines.push(`        ${line(choice.summary)}`);
  }
  for (const choice of choices) {
    if (choice.refused !== null) lines.push(`    not offered: ${line(choice.refused)}`);
  }
  return lines;
}

/** Whether any sub-command has a widening to choose (otherwise "a" stores the rules as shown). */
export function hasWidening(preview: AlwaysRulePreview): boolean {
  return preview.choices.some((list) => list.some((c) => c.widen !== null && c.refused === null));
}

export type PromptOutcome =
  | { readonly kind: 'answer'; readonly answer: ApprovalAnswer }
  | { readonly kind: 'closed' }
  | { readonly kind: 'aborted' };

/** The first widening offered, as the card's hint shows it. */
export function widenExample(preview: AlwaysRulePreview): string {
  const first = preview.choices.flat().find((c) => c.widen !== null && c.refused === null);
  return first?.rule ?? 'a prefix';
}

/**
 * Asks, per sub-command with a widening, which rule to store: the "always" answer, or a deny
 * when the person types "n".
 */
export async function promptAlwaysRule(
  preview: AlwaysRulePreview,
  io: AlwaysPromptIo,
): Promise<PromptOutcome> {
  const widen: (readonly string[])[] = [];
  for (const choices of preview.choices) {
    const offered = choices.filter((c) => c.refused === null);
    if (!offered.some((c) => c.widen !== null)) continue;
    io.write(`  "a" stores, for ${io.line(offered[0]?.rule ?? 'this command')}, one of:\n`);
    io.write(`${choiceLines(choices, io.line).join('\n')}\n`);
    for (;;) {
      io.write(`  rule [1-${offered.length}, Enter = 1, n = deny]> `);
      const read = await io.readLine();
      if (read.kind !== 'line') return read;
      const text = read.text.trim().toLowerCase();
      if (text === 'n' || text === 'no') return { kind: 'answer', answer: { kind: 'deny' } };
      const index = text === '' ? 0 : Number(text) - 1;
      const picked = Number.isInteger(index) ? offered[index] : undefined;
      if (!picked) continue;
      if (picked.widen) widen.push(picked.widen);
      break;
    }
  }
  const answer: ApprovalAnswer =
    widen.length > 0 ? { kind: 'allow-always', widen } : { kind: 'allow-always' };
  return { kind: 'answer', answer };
}
