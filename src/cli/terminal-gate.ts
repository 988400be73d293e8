// A small permission gate for the terminal until the full engine (src/main/permissions) replaces
// it: reads run; the mode relaxes coarsely; otherwise ask y/n/a on a TTY, or refuse without one.
import { createHash, randomUUID } from 'node:crypto';
import type { RunEvent } from '../shared/events';
import type { ApprovalAnswer, PermissionMode, ToolPreview } from '../shared/tool-types';
import type { GateRequest, GateVerdict, PermissionGate } from '../main/permissions/gate';

export interface TerminalGateOptions {
  readonly mode: PermissionMode;
  /** Asks one question on the terminal; absent when stdin is not a TTY. Undefined on abort. */
  readonly ask?: (question: string, signal: AbortSignal) => Promise<string | undefined>;
  /** One line for the person (stderr). */
  readonly warn: (line: string) => void;
}

export function createTerminalGate(options: TerminalGateOptions): PermissionGate {
  const allowedThisSession = new Set<string>();

  return async (request, emit, signal) => {
    const { tool, taintedBy } = request;
    const decide = (verdict: GateVerdict, reason: string): GateVerdict => {
      emit({
        type: 'permission-decided',
        runId: request.runId,
        callId: request.callId,
        decision: verdict.kind === 'run' ? 'run' : 'refuse',
        reasons: [reason],
      });
      return verdict;
    };
    if (tool.effect === 'read')
      return decide({ kind: 'run', provenance: 'read-only tool' }, 'reads run without asking');
    switch (options.mode) {
      case 'autonomous':
        return decide(
          { kind: 'run', provenance: 'autonomous mode' },
          'autonomous mode runs everything',
        );
      case 'read-only':
        return decide(
          {
            kind: 'refuse',
            message: `Refused: Tandem is in read-only mode, so ${tool.name} (${tool.effect}) cannot run. Work with read-only tools, or tell the person what you would change.`,
          },
          'read-only mode',
        );
      case 'auto-edit':
        if (tool.effect === 'write' && !taintedBy) {
          return decide(
            { kind: 'run', provenance: 'auto-edit mode' },
            'auto-edit mode runs file writes',
          );
        }
        break;
      case 'ask':
        break;
    }
    if (allowedThisSession.has(tool.name)) {
      return decide(
        { kind: 'run', provenance: `you allowed ${tool.name} for this session` },
        'allowed for this session',
      );
    }
    return askPerson(request, emit, signal, options, allowedThisSession);
  };
}

async function askPerson(
  request: GateRequest,
  emit: (event: RunEvent) => void,
  signal: AbortSignal,
  options: TerminalGateOptions,
  allowedThisSession: Set<string>,
): Promise<GateVerdict> {
  const { tool, args } = request;
  const preview = await previewOf(request);
  const requestId = randomUUID();
  const reasons = [
    `${tool.effect} needs approval in ${options.mode} mode`,
    ...(request.taintedBy ? [`the run has taken in outside content (${request.taintedBy})`] : []),
  ];
  emit({
    type: 'approval-requested',
    runId: request.runId,
    requestId,
    callId: request.callId,
    name: tool.name,
    args,
    argsHash: hashArgs(args),
    effect: tool.effect,
    preview,
    reasons,
    at: Date.now(),
  });
  const resolve = (answer: ApprovalAnswer, by: 'person' | 'stop' | 'no-tty'): void => {
    emit({
      type: 'approval-resolved',
      runId: request.runId,
      requestId,
      callId: request.callId,
      answer,
      by,
      at: Date.now(),
    });
  };
  const summary = oneLine(previewText(preview));

  if (!options.ask) {
    resolve({ kind: 'deny' }, 'no-tty');
    options.warn(
      `tandem: refused ${tool.name} (${summary}): it needs approval and stdin is not a terminal; use --mode to allow it`,
    );
    return {
      kind: 'refuse',
      message:
        `Refused: ${tool.name} (${tool.effect}) needs the person's approval, and no one can approve it here (stdin is not a terminal). ` +
        'Do not retry it; finish with read-only tools or explain what you would do. The person can rerun with --mode auto-edit or --mode autonomous.',
    };
  }

  const card = `\n${tool.name} (${tool.effect}) wants to run:\n${indent(previewText(preview))}\n${reasons.map((r) => `  why asked: ${r}`).join('\n')}\nAllow? [y]es / [n]o / [a]lways for this session: `;
  const reply = signal.aborted ? undefined : await options.ask(card, signal);
  if (reply === undefined || signal.aborted) {
    resolve({ kind: 'deny' }, 'stop');
    return { kind: 'refuse', message: 'cancelled by the user' };
  }
  const key = reply.trim().toLowerCase();
  if (key === 'y' || key === 'yes') {
    resolve({ kind: 'allow-once' }, 'person');
    return { kind: 'run', provenance: `you allowed it at ${clock()}` };
  }
  if (key === 'a' || key === 'always') {
    allowedThisSession.add(tool.name);
    resolve({ kind: 'allow-session' }, 'person');
    return { kind: 'run', provenance: `you allowed ${tool.name} for this session at ${clock()}` };
  }
  resolve({ kind: 'deny' }, 'person');
  return {
    kind: 'refuse',
    message: `The person declined ${tool.name}. Do not retry it; ask them or take another approach.`,
  };
}

async function previewOf(request: GateRequest): Promise<ToolPreview> {
  try {
    if (request.tool.preview) return await request.tool.preview(request.args as never, request.ctx);
  } catch (error) {
    return {
      kind: 'text',
      text: `(no preview: ${error instanceof Error ? error.message : String(error)})\n${JSON.stringify(request.args, null, 2)}`,
    };
  }
  return { kind: 'text', text: JSON.stringify(request.args, null, 2) };
}

export function previewText(preview: ToolPreview): string {
  switch (preview.kind) {
    case 'diff':
      return `${preview.summary}\n${preview.diff}`;
    case 'command':
      return `$ ${preview.command}   (in ${preview.cwd}; ${preview.sandbox.available ? preview.sandbox.description : 'not sandboxed'})`;
    case 'url':
      return `${preview.method} ${preview.url}`;
    case 'text':
      return preview.text;
  }
}

function hashArgs(args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(args) ?? '')
    .digest('hex');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function clock(): string {
  return new Date().toTimeString().slice(0, 5);
}
