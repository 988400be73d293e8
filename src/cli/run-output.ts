// How `tandem run` shows a run: JSON lines for programs, or text for people (the answer on
// stdout, the trace on stderr so the answer can be piped). Everything the model, a file or a tool
// controls goes through the terminal sanitiser (terminal-text.ts) on its way out.
import type { RunEvent } from '../shared/events';
import { safeJsonStringify } from '../shared/safe-json';
import { describeContextUse, describeRequest, type ContextUseFigures } from '../shared/usage-text';
import type { CliIo } from './cli-io';
import { jsonLine, terminalTextFor } from './terminal-text';

export function createEventPrinter(io: CliIo, json: boolean): (event: RunEvent) => void {
  if (json) return (event) => io.stdout.write(jsonLine(event));
  const answer = terminalTextFor(io.stdout, io.env);
  const trace = terminalTextFor(io.stderr, io.env);
  let midLine = false;
  let context: ContextUseFigures | undefined;
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
          `→ ${trace.line(event.name)} ${trace.line(short(typeof event.args === 'string' ? event.args : safeJsonStringify(event.args)))}\n`,
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
      case 'context-compacted':
        endLine();
        io.stderr.write(
          `… context compacted: ${event.keptFrom.toLocaleString('en-US')} earlier messages summarised (${event.tokensBefore.toLocaleString('en-US')} → ${event.tokensAfter.toLocaleString('en-US')} tokens); the transcript keeps them\n`,
        );
        return;
      case 'instructions-loaded':
        endLine();
        io.stderr.write(
          `project instructions loaded: ${trace.line(event.file)}${event.note ? ` (${trace.line(event.note)})` : ''}\n`,
        );
        return;
      case 'context-use':
        context = event;
        return;
      case 'usage':
        // Per request: what the provider counted and charged, and how full the window is.
        endLine();
        io.stderr.write(
          `  · ${describeRequest(event.usage, event.costUsd)}` +
            (context ? `; context ${describeContextUse(context)}` : '') +
            '\n',
        );
        return;
      case 'run-started':
      case 'permission-decided':
      case 'approval-requested':
      case 'approval-resolved':
      case 'tool-output':
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
