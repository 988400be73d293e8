// Before "Always allow" is saved: the rule that will be stored, and what it would have let run
// without asking among this project's earlier calls ("would have run 14 earlier calls ...").
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../../shared/events';
import { eventsFromTranscript } from './approval-audit';
import { coverClassification } from './command-coverage';
import { describeRule, ruleMatchesTool, type PermissionRule } from './permission-rule';
import type { PolicyDeps } from './policy-deps';

/** A call that asked for approval earlier; `command` is set when its card showed a command. */
export interface EarlierCall {
  readonly name: string;
  readonly command?: string;
}

export interface RulePreview {
  readonly rule: string;
  readonly matched: number;
  readonly examples: readonly string[];
  readonly summary: string;
}

export function earlierCallsFromEvents(events: readonly RunEvent[]): EarlierCall[] {
  const calls: EarlierCall[] = [];
  for (const event of events) {
    if (event.type !== 'approval-requested') continue;
    calls.push(
      event.preview.kind === 'command'
        ? { name: event.name, command: event.preview.command }
        : { name: event.name },
    );
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
  const examples: string[] = [];
  let matched = 0;
  for (const call of calls) {
    if (!(await wouldRun(rule, call, folder, deps))) continue;
    matched++;
    if (examples.length < maxExamples) examples.push(call.command ?? call.name);
  }
  const shown = examples.map((e) => `\`${e}\``).join(', ');
  const summary =
    matched === 0
      ? `${describeRule(rule)} would not have run any earlier call of this project without asking`
      : `${describeRule(rule)} would have run ${matched} earlier call${matched === 1 ? '' : 's'} without asking, e.g. ${shown}`;
  return { rule: describeRule(rule), matched, examples, summary };
}

async function wouldRun(
  rule: PermissionRule,
  call: EarlierCall,
  folder: string,
  deps: PolicyDeps,
): Promise<boolean> {
  switch (rule.kind) {
    case 'tool':
      return ruleMatchesTool(rule, call.name);
    case 'command': {
      if (call.command === undefined) return false;
      const classification = await deps.classifyCommand(call.command, folder);
      const { coverage } = coverClassification(classification, [rule], [], false);
      return coverage.covered;
    }
  }
}

/** Every event of every transcript (`*.jsonl`) under a project's data folder. */
export async function loadProjectEvents(projectDir: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (const file of await transcriptFiles(projectDir)) {
    events.push(...eventsFromTranscript(await readFile(file, 'utf8')));
  }
  return events;
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
