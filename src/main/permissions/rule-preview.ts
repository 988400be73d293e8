// Before "Always allow" is saved: the rule that will be stored, and what it would have let run
// without asking among this project's earlier calls ("would have run 14 earlier calls ...").
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../../shared/events';
import { eventsFromTranscript } from './approval-audit';
import { coverClassification, coverCommand } from './command-coverage';
import { describeRule, ruleMatchesTool, type PermissionRule } from './permission-rule';
import type { PolicyDeps } from './policy-deps';

/** A call that asked for approval earlier; `command` is set when its card showed a command. */
export interface EarlierCall {
  readonly name: string;
  readonly command?: string;
  /**
   * True for a call of the session now asking (say, the same command allowed once a minute ago),
   * so the preview can say so instead of implying the project's history before it.
   */
  readonly thisSession?: boolean;
}

export interface RulePreview {
  readonly rule: string;
  readonly matched: number;
  readonly examples: readonly string[];
  readonly summary: string;
}

export function earlierCallsFromEvents(
  events: readonly RunEvent[],
  thisSession = false,
): EarlierCall[] {
  const calls: EarlierCall[] = [];
  for (const event of events) {
    if (event.type !== 'approval-requested') continue;
    calls.push({
      name: event.name,
      ...(event.preview.kind === 'command' ? { command: event.preview.command } : {}),
      ...(thisSession ? { thisSession } : {}),
    });
  }
  return calls;
}

export async function previewRule(
  rule: PermissionRule,
  calls: readonly EarlierCall[],
  folder: string,
  deps: PolicyDeps,
  maxExamples = 3,
): Promise<RulePreview> {
  const [preview] = await previewRules([rule], calls, folder, deps, maxExamples);
  if (!preview) throw new Error('unreachable: one rule, one preview');
  return preview;
}

/**
 * Previews several rules over the same earlier calls (an exact rule and its widenings): each
 * call is parsed, and its parts checked for whether any rule may cover them, once.
 */
export async function previewRules(
  rules: readonly PermissionRule[],
  calls: readonly EarlierCall[],
  folder: string,
  deps: PolicyDeps,
  maxExamples = 3,
): Promise<RulePreview[]> {
  const tallies = rules.map(() => ({ matched: 0, inSession: 0, examples: [] as string[] }));
  for (const call of calls) {
    const runs = await runsFor(call, folder, deps);
    rules.forEach((rule, i) => {
      const tally = tallies[i];
      if (!tally || !runs(rule)) return;
      tally.matched++;
      if (call.thisSession) tally.inSession++;
      if (tally.examples.length < maxExamples) tally.examples.push(call.command ?? call.name);
    });
  }
  return rules.map((rule, i) => {
    const { matched, inSession, examples } = tallies[i] ?? {
      matched: 0,
      inSession: 0,
      examples: [],
    };
    const shown = examples.map((e) => `\`${e}\``).join(', ');
    const summary =
      matched === 0
        ? `${describeRule(rule)} would not have run any earlier call of this project without asking`
        : `${describeRule(rule)} would have run ${matched} earlier call${matched === 1 ? '' : 's'}${where(matched, inSession)} without asking, e.g. ${shown}`;
    return { rule: describeRule(rule), matched, examples, summary };
  });
}

/** Where the earlier calls were, when some were in the session now asking. */
function where(matched: number, inSession: number): string {
  if (inSession === 0) return '';
  if (inSession === matched) return matched === 1 ? ' (in this session)' : ' (all in this session)';
  return ` (${inSession} in this session)`;
}

/** Whether a rule alone would have run this earlier call without asking. */
async function runsFor(
  call: EarlierCall,
  folder: string,
  deps: PolicyDeps,
): Promise<(rule: PermissionRule) => boolean> {
  if (call.command === undefined) return (rule) => ruleMatchesTool(rule, call.name);
  const classification = await deps.classifyCommand(call.command, folder);
  // Which parts a rule may cover at all does not depend on the rule: found once per call.
  const { coverable, structural } = coverClassification(classification, [], [], false);
  return (rule) => {
    if (rule.kind === 'tool') return ruleMatchesTool(rule, call.name);
    if (structural.length > 0) return false;
    return coverCommand(classification.parts, [rule], [], false, (p) => coverable.has(p)).covered;
  };
}

/** Every event of every transcript (`*.jsonl`) under a project's data folder. */
export async function loadProjectEvents(projectDir: string): Promise<RunEvent[]> {
  return (await loadProjectTranscripts(projectDir)).flat();
}

/** The events of each transcript under a project's data folder, one list per file. */
export async function loadProjectTranscripts(projectDir: string): Promise<RunEvent[][]> {
  const transcripts: RunEvent[][] = [];
  for (const file of await transcriptFiles(projectDir)) {
    transcripts.push(eventsFromTranscript(await readFile(file, 'utf8')));
  }
  return transcripts;
}

async function transcriptFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await transcriptFiles(path)));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) files.push(path);
  }
  return files;
}
