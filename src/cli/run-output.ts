// How `tandem run` shows a run: JSON lines for programs, or text for people (the answer on
// stdout, the trace on stderr so the answer can be piped). Everything the model, a file or a tool
// controls goes through the terminal sanitiser (terminal-text.ts) on its way out; colour is only
// ever Tandem's own (cli-style.ts).
import type { RunEvent } from '../shared/events';
import { safeJsonStringify } from '../shared/safe-json';
import { describeContextUse, describeRequest, type ContextUseFigures } from '../shared/usage-text';
import { createAnswerPrinter, type MarkdownDrawing } from './answer-printer';
import type { CliIo } from './cli-io';
import type { CliStyle } from './cli-style';
import { createCommandOutputView } from './command-output-view';
import { shellEnding } from './shell-ending';
import { jsonLine } from './terminal-text';
import { groupDigits } from '../shared/digit-groups';

export interface EventPrinterOptions {
  readonly json: boolean;
  /** Styles for the trace (stderr) and the answer (stdout). */
  readonly trace: CliStyle;
  readonly answer: CliStyle;
  /** The markdown renderer, when stdout is a terminal (the answer is then drawn). */
  readonly markdown?: MarkdownDrawing;
}

export function createEventPrinter(
  io: CliIo,
  options: EventPrinterOptions,
): (event: RunEvent) => void {
  if (options.json) return (event) => io.stdout.write(jsonLine(event));
  const { trace, answer } = options;
  const { paint, text } = trace;
  const err = (line: string): void => void io.stderr.write(line);
  const answers = createAnswerPrinter({
    write: (t) => void io.stdout.write(t),
    style: answer,
    render: io.stdout.isTTY === true && options.markdown ? options.markdown : false,
    columns: () => io.stdout.columns ?? 80,
  });
  const output = createCommandOutputView({
    write: err,
    style: trace,
    columns: () => io.stderr.columns ?? 80,
  });
  const shellCalls = new Set<string>();

  // The latest request's share of the window, printed with its usage when that comes.
  let context: ContextUseFigures | undefined;
  return (event) => {
    switch (event.type) {
      case 'assistant-delta':
        answers.push(event.text);
        return;
      case 'assistant-message':
      case 'run-finished':
        answers.finish();
        return;
      case 'tool-call-started': {
        answers.finish();
        const command = commandOf(event.name, event.args);
        if (command !== null) {
          shellCalls.add(event.callId);
          err(`${paint.cyan('$')} ${paint.bold(text.line(command))}\n`);
        } else {
          // safeJsonStringify: arguments nested too deep for JSON.stringify are named, not thrown.
          const args = typeof event.args === 'string' ? event.args : safeJsonStringify(event.args);
          err(
            `${paint.cyan('→')} ${paint.bold(text.line(event.name))} ${text.line(short(args ?? ''))}\n`,
          );
        }
        return;
      }
      case 'tool-output':
        output.chunk(event.callId, event.chunk);
        return;
      case 'tool-result': {
        output.end(event.callId);
        const mark = event.ok ? paint.green('✓') : paint.red('✗');
        const ending = shellCalls.delete(event.callId) ? shellEnding(event.output) : null;
        const why = event.provenance ? paint.dim(` · ${text.line(event.provenance)}`) : '';
        const hidden = masked(event.secrets?.length ?? 0);
        if (ending) {
          const after = hidden ? ` · ${hidden}` : '';
          err(
            `  ${mark} ${text.line(ending.status)} ${paint.dim(`· ${ending.duration}${after}`)}${why}\n`,
          );
          if (ending.changes) err(`    ${paint.dim(text.line(ending.changes))}\n`);
        } else {
          const first = event.output.split('\n')[0] ?? '';
          err(
            `  ${mark} ${text.output(short(first))} ${paint.dim(`(${event.durationMs} ms${hidden ? `; ${hidden}` : ''})`)}${why}\n`,
          );
        }
        return;
      }
      case 'error':
        if (event.retrying) err(`  ${paint.yellow('…')} ${text.line(event.message)}\n`);
        return;
      case 'context-compacted':
        answers.finish();
        err(
          `${paint.yellow('…')} ${paint.dim(`context compacted: ${n(event.keptFrom)} earlier messages summarised (${n(event.tokensBefore)} → ${n(event.tokensAfter)} tokens); the transcript keeps them`)}\n`,
        );
        return;
      case 'instructions-loaded':
        answers.finish();
        err(
          paint.dim(
            `project instructions loaded: ${text.line(event.file)}${event.note ? ` (${text.line(event.note)})` : ''}`,
          ) + '\n',
        );
        return;
      case 'context-use':
        context = event;
        return;
      case 'usage':
        // Per request: what the provider counted and charged, and how full the window is. The
        // turn is complete when its usage comes, so its answer is printed whole first.
        answers.finish();
        err(
          paint.dim(
            `  · ${describeRequest(event.usage, event.costUsd)}` +
              (context ? `; context ${describeContextUse(context)}` : ''),
          ) + '\n',
        );
        return;
      case 'run-started':
      case 'permission-decided':
      case 'approval-requested':
      case 'approval-resolved':
      case 'files-reverted':
        return;
    }
  };
}

/** The command line of a shell call, or null for any other tool. */
function commandOf(name: string, args: unknown): string | null {
  if (name !== 'shell' || typeof args !== 'object' || args === null) return null;
  const command = (args as { command?: unknown }).command;
  return typeof command === 'string' ? command : null;
}

/** How many secrets of a result the model saw masked ("" for none). */
function masked(count: number): string {
  if (count === 0) return '';
  return count === 1 ? '1 secret masked for the model' : `${count} secrets masked for the model`;
}

const n = (value: number): string => groupDigits(value);

/** At most 160 characters, cut between code points (before escaping, so no escape is cut). */
function short(value: string): string {
  if (value.length <= 160) return value;
  const points = Array.from(value);
  return points.length > 160 ? `${points.slice(0, 157).join('')}...` : value;
}
