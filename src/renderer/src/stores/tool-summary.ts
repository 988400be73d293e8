// The one line a collapsed tool card shows in place of its output: "exit code 0 · 12 lines",
// "3 entries", "Edited notes.txt: +1 −1.", or the first line of an error.
import { commandText } from './tool-changes';
import type { ToolItem } from './trace-model';

const MAX_CHARS = 140;
// One formatter: toLocaleString makes a new one per call, which showed up while scrolling a long
// trace (bench/ui.bench.ts).
const NUMBERS = new Intl.NumberFormat('en');
// Items never change in place (the reducer copies what changes), so a summary is worked out once
// per item however often its card is drawn.
const summaries = new WeakMap<ToolItem, string | null>();

export function outputSummary(tool: ToolItem): string | null {
  let summary = summaries.get(tool);
  if (summary === undefined) {
    summary = summarise(tool);
    summaries.set(tool, summary);
  }
  return summary;
}

function summarise(tool: ToolItem): string | null {
  if (tool.result === undefined) return null;
  if (tool.name === 'shell') return shellSummary(commandText(tool));
  const lines = nonEmptyLines(tool.result);
  if (lines.length === 0) return '(no output)';
  if (tool.status === 'done') {
    switch (tool.name) {
      case 'read_file':
        // Its first line says what was read: "notes.txt (lines 1-40 of 120)".
        return cut(lines[0] as string);
      case 'list_dir':
        // The first line is the folder itself.
        return `${lines[0] as string} · ${count(lines.length - 1, 'entry', 'entries')}`;
      case 'search':
      case 'find_files':
        return lines.length === 1 ? cut(lines[0] as string) : count(lines.length, 'line');
    }
  }
  const first = cut(lines[0] as string);
  return lines.length > 1 ? `${first} (+${count(lines.length - 1, 'more line')})` : first;
}

/** The shell's status line ("exit code 0 · 0.1 s · sandbox: …") and how much it printed. */
function shellSummary(text: string): string {
  const lines = nonEmptyLines(text);
  const status = lines.findLast((line) => /^(exit code|killed by|stopped;|timed out)/.test(line));
  const printed = lines.filter((line) => line !== status && line !== '(no output)').length;
  const head = status ? (status.split(' · ')[0] as string).split(';')[0] : 'finished';
  return `${head} · ${printed === 0 ? 'no output' : count(printed, 'line')}`;
}

function nonEmptyLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${NUMBERS.format(n)} ${n === 1 ? one : many}`;
}

function cut(line: string): string {
  const points = Array.from(line.trim());
  return points.length > MAX_CHARS ? `${points.slice(0, MAX_CHARS - 1).join('')}…` : line.trim();
}
