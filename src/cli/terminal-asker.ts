// The CLI's approval card: prints what will happen and reads one answer per request from the
// terminal, oldest request first. y = once, s = this session, t = 30 minutes, a = always here,
// n = deny, anything else = deny with that text as a note. No terminal, or input closed, = deny.
import { createInterface, type Interface } from 'node:readline';
import type { ApprovalAnswer, ToolPreview } from '../shared/tool-types';
import type {
  AnsweredBy,
  AnswerResult,
  PendingApproval,
} from '../main/permissions/approval-broker';
import type { AskContext, Asker } from '../main/permissions/asker';
import { NO_PAINT, type Paint } from './cli-style';
import { PLAIN_TERMINAL_TEXT, type TerminalText } from './terminal-text';
import type { AlwaysRulePreview } from '../shared/api';
import { hasWidening, promptAlwaysRule, widenExample } from './always-rule-prompt';

export interface TerminalAskerOptions {
  readonly input: NodeJS.ReadableStream;
  readonly write: (text: string) => void;
  /** False when stdin is not a terminal: every request is denied as 'no-tty'. */
  readonly interactive: boolean;
  /** What "always" would store and may widen to, previewed over earlier calls. */
  readonly previewAlways?: (
    request: PendingApproval,
    context: AskContext,
  ) => Promise<AlwaysRulePreview | null>;
  /** How text the model or a file controls is shown (default: plain visible escapes). */
  readonly text?: TerminalText;
  /** Tandem's own colours around it (default: none). */
  readonly paint?: Paint;
  /**
   * Waited for before a card is printed or the terminal read: `tandem run` holds its output behind
   * its header, and a card must be on screen before any line can answer it.
   */
  readonly beforeCard?: () => Promise<void>;
}

type Respond = (answer: ApprovalAnswer, by?: AnsweredBy) => AnswerResult;

interface Queued {
  readonly request: PendingApproval;
  readonly respond: Respond;
  readonly context: AskContext;
}

export const ANSWER_HELP =
  '[y] allow once  [s] for this session  [t] for 30 minutes  [a] always in this project  [n] deny  (or type a note to deny with it)';

export function parseTerminalAnswer(line: string): ApprovalAnswer | null {
  const text = line.trim();
  switch (text.toLowerCase()) {
    case '':
      return null;
    case 'y':
    case 'yes':
      return { kind: 'allow-once' };
    case 's':
      return { kind: 'allow-session' };
    case 't':
      return { kind: 'allow-for', minutes: 30 };
    case 'a':
      return { kind: 'allow-always' };
    case 'n':
    case 'no':
      return { kind: 'deny' };
    default:
      return { kind: 'deny-with-note', note: text };
  }
}

export interface TerminalAsker extends Asker {
  /** Stops reading the terminal (so the process can exit); later requests are denied. */
  close(): void;
}

export function createTerminalAsker(options: TerminalAskerOptions): TerminalAsker {
  const text = options.text ?? PLAIN_TERMINAL_TEXT;
  const paint = options.paint ?? NO_PAINT;
  const queue: Queued[] = [];
  let busy = false;
  let lines: LineReader | null = null;

  async function drain(): Promise<void> {
    if (busy) return;
    busy = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) await handle(next);
    } finally {
      busy = false;
    }
  }

  async function handle({ request, respond, context }: Queued): Promise<void> {
    if (context.signal.aborted) return;
    await options.beforeCard?.();
    if (context.signal.aborted) return;
    if (!options.interactive) {
      options.write(
        `${paint.yellow('tandem: refused')} ${text.line(request.name)}: it needs approval and stdin is not a terminal; use --mode to allow it\n`,
      );
      respond({ kind: 'deny' }, 'no-tty');
      return;
    }
    const always =
      context.rules.length > 0 && options.previewAlways
        ? await options.previewAlways(request, context).catch(() => null)
        : null;
    options.write(card(request, context, always, text, paint));
    const reader = (lines ??= new LineReader(options.input));
    for (;;) {
      options.write(`${paint.dim(ANSWER_HELP)}\n${paint.bold('>')} `);
      const read = await reader.next(context.signal);
      if (read.kind === 'aborted') return;
      if (read.kind === 'closed') {
        respond({ kind: 'deny' }, 'no-tty');
        return;
      }
      let answer = parseTerminalAnswer(read.text);
      if (answer?.kind === 'allow-always' && always && hasWidening(always)) {
        // Widening is a choice of its own, never the default: Enter keeps the exact rule.
        const chosen = await promptAlwaysRule(always, {
          write: options.write,
          readLine: () => reader.next(context.signal),
          line: (value) => text.line(value),
        });
        if (chosen.kind === 'aborted') return;
        if (chosen.kind === 'closed') {
          respond({ kind: 'deny' }, 'no-tty');
          return;
        }
        answer = chosen.answer;
      }
      if (answer) {
        const result = respond(answer);
        if (result.ok) return;
        options.write(`tandem: that answer was not taken: ${result.message}\n`);
      }
    }
  }

  return {
    ask(request, respond, context) {
      queue.push({ request, respond, context });
      void drain();
    },
    close() {
      lines?.close();
    },
  };
}

// Every piece of the card that the model, a file or an MCP server controls (names, commands,
// paths, parts, reasons, diff lines, URLs, rule previews) goes through `text`.
function card(
  request: PendingApproval,
  context: AskContext,
  always: AlwaysRulePreview | null,
  text: TerminalText,
  paint: Paint,
): string {
  const lines = [
    ``,
    paint.yellow(`── ${paint.bold(text.line(request.name))} needs your approval ──`),
    ...previewLines(request.preview, text, paint),
  ];
  lines.push(...request.reasons.map((r) => `  ${paint.yellow('why:')} ${text.line(r)}`));
  if (context.grantable.length > 0) {
    lines.push(
      `  "s", "t" and "a" would allow: ${context.grantable.map((g) => text.line(g)).join(', ')}`,
    );
    if (always) lines.push(`  "a" would store: ${text.line(always.summary)}`);
    if (always && hasWidening(always)) {
      lines.push(
        `  after "a" you may widen it instead, e.g. to ${text.line(widenExample(always))}`,
      );
    }
  } else {
    lines.push('  "s", "t" and "a" allow this call only (nothing here can be stored as a rule)');
  }
  return `${lines.join('\n')}\n`;
}

function previewLines(preview: ToolPreview, text: TerminalText, paint: Paint): string[] {
  switch (preview.kind) {
    case 'command':
      return [
        `  ${paint.cyan('$')} ${paint.bold(text.line(preview.command))}`,
        paint.dim(
          `  in ${text.line(preview.cwd)} (${preview.sandbox.available ? text.line(preview.sandbox.description) : 'not sandboxed'})`,
        ),
        ...preview.parts.map(
          (p) =>
            `    ${p.safe ? paint.green('read-only    ') : paint.yellow('not read-only')}  ${text.line(p.text)}`,
        ),
      ];
    case 'diff':
      return [
        `  ${paint.bold(text.line(preview.path))}: ${text.line(preview.summary)}`,
        ...preview.diff.split('\n').map((l) => `  ${diffLine(text.lines(l), paint)}`),
      ];
    case 'url':
      return [`  ${text.line(preview.method)} ${text.line(preview.url)}`];
    case 'text':
      return preview.text.split('\n').map((l) => `  ${text.lines(l)}`);
  }
}

/** A unified diff line in the usual colours: added green, removed red, hunk headers cyan. */
function diffLine(line: string, paint: Paint): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('===')) {
    return paint.bold(line);
  }
  if (line.startsWith('+')) return paint.green(line);
  if (line.startsWith('-')) return paint.red(line);
  if (line.startsWith('@@')) return paint.cyan(line);
  return line;
}

/** One line at a time from the input, shared by every card; 'closed' once the input ends. */
type Read = { kind: 'line'; text: string } | { kind: 'closed' } | { kind: 'aborted' };

class LineReader {
  private readonly buffered: string[] = [];
  private waiter: ((read: Read) => void) | null = null;
  private closed = false;
  private readonly rl: Interface;

  constructor(input: NodeJS.ReadableStream) {
    this.rl = createInterface({ input, terminal: false });
    this.rl.on('line', (line) => this.push(line));
    this.rl.on('close', () => {
      this.closed = true;
      this.waiter?.({ kind: 'closed' });
      this.waiter = null;
    });
  }

  next(signal: AbortSignal): Promise<Read> {
    const ready = this.buffered.shift();
    if (ready !== undefined) return Promise.resolve({ kind: 'line', text: ready });
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.waiter = null;
        resolve({ kind: 'aborted' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (read) => {
        signal.removeEventListener('abort', onAbort);
        resolve(read);
      };
    });
  }

  close(): void {
    this.rl.close();
  }

  private push(line: string): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake({ kind: 'line', text: line });
    } else this.buffered.push(line);
  }
}
