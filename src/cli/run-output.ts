// How `tandem run` shows a run: JSON lines for programs, or text for people (the answer on
// stdout, the trace on stderr so the answer can be piped). Everything the model, a file or a tool
// controls goes through the terminal sanitiser (terminal-text.ts) on its way out.
import type { RunEvent } from '../shared/events';
import type { CliIo } from './cli-io';
import { jsonLine, terminalTextFor } from './terminal-text';

export function createEventPrinter(io: CliIo, json: boolean): (event: RunEvent) => void {
  if (json) return (event) => io.stdout.write(jsonLine(event));
  const answer = terminalTextFor(io.stdout, io.env);
  const trace = terminalTextFor(io.stderr, io.env);
  let midLine = false;
  const endLine = (): void => {
    if (midLine) io.stdout.write('\n');
    midLine = false;
  };
  return (event) => {
    switch (event.type) {
      case 'assistant-delta':
        io.stdout.write(answer.lines(event.text));
        midLine = !event.text.endsWith('\n');
        return;
      case 'assistant-message':
        endLine();
        return;
      case 'tool-call-started':
        endLine();
        io.stderr.write(
          `→ ${trace.line(event.name)} ${trace.line(short(typeof event.args === 'string' ? event.args : JSON.stringify(event.args)))}\n`,
        );
        return;
      case 'tool-result':
        io.stderr.write(
          `  ${event.ok ? '✓' : '✗'} ${trace.output(short(event.output.split('\n')[0] ?? ''))} (${event.durationMs} ms)\n`,
        );
        return;
      case 'error':
        if (event.retrying) io.stderr.write(`  … ${trace.line(event.message)}\n`);
        return;
      case 'run-finished':
        endLine();
        return;
      case 'run-started':
      case 'permission-decided':
      case 'approval-requested':
      case 'approval-resolved':
      case 'tool-output':
      case 'usage':
      case 'files-reverted':
        return;
    }
  };
}

/** At most 160 characters, cut between code points (before escaping, so no escape is cut). */
function short(text: string): string {
  if (text.length <= 160) return text;
  const points = Array.from(text);
  return points.length > 160 ? `${points.slice(0, 157).join('')}...` : text;
}
