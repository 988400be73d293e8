// How `tandem run` shows a run: JSON lines for programs, or text for people (the answer on
// stdout, the trace on stderr so the answer can be piped).
import type { RunEvent } from '../shared/events';
import { safeJsonStringify } from '../shared/safe-json';
import type { CliIo } from './cli-io';

export function createEventPrinter(io: CliIo, json: boolean): (event: RunEvent) => void {
  if (json) return (event) => io.stdout.write(`${safeJsonStringify(event)}\n`);
  let midLine = false;
  const endLine = (): void => {
    if (midLine) io.stdout.write('\n');
    midLine = false;
  };
  return (event) => {
    switch (event.type) {
      case 'assistant-delta':
        io.stdout.write(event.text);
        midLine = !event.text.endsWith('\n');
        return;
      case 'assistant-message':
        endLine();
        return;
      case 'tool-call-started':
        endLine();
        io.stderr.write(
          `→ ${printable(event.name)} ${printable(short(typeof event.args === 'string' ? event.args : safeJsonStringify(event.args)))}\n`,
        );
        return;
      case 'tool-result':
        io.stderr.write(
          `  ${event.ok ? '✓' : '✗'} ${printable(short(event.output.split('\n')[0] ?? ''))} (${event.durationMs} ms)\n`,
        );
        return;
      case 'error':
        if (event.retrying) io.stderr.write(`  … ${event.message}\n`);
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
        return;
    }
  };
}

function short(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * The trace line is made of model-sent text: control characters (an escape sequence could
 * rewrite the terminal) and bidi overrides become visible escapes instead of acting.
 */
function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
