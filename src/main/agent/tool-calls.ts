// Answers the tool calls of one model turn: validate → gate → run or refuse → one tool message per
// call, in the order of the calls. Reads run side by side; everything else one at a time.
import { defaultMaxListeners, setMaxListeners } from 'node:events';
import type { ChangeReport } from '../../shared/change-report';
import stripAnsi from 'strip-ansi';
import type { RunEvent } from '../../shared/events';
import { isAllow, type ToolImage } from '../../shared/tool-types';
import type { GateRequest, GateVerdict, PermissionGate } from '../permissions/gate';
import { CANCELLED_MESSAGE, loadArgumentValidator, type ToolRegistry } from '../tools/registry';
import type { AnyTool, ToolContext, ToolServices, ToolTarget } from '../tools/tool';
import type { CallStops } from './call-stops';
import type { ChatMessage, ChatToolCall } from './chat-message';
import type { maskSecrets as MaskSecrets } from './secret-mask';

export interface ToolCallDeps {
  readonly registry: ToolRegistry;
  readonly gate: PermissionGate;
  readonly folder: string;
  readonly sessionId: string;
  readonly runId: string;
  readonly services: ToolServices;
  readonly emit: (event: RunEvent) => void;
  /** Where a running call registers, so the person can stop it alone. */
  readonly callStops?: CallStops;
}

/** Session state that outlives one turn and one run. */
export interface RunTaint {
  /**
   * Set once outside content entered the conversation (a fetch, an MCP tool, a command that ran
   * with the network on); later gate requests carry it.
   */
  taintedBy?: string;
}

/**
 * Rebuilds the taint of a reopened session from its recorded events. A result that says so names
 * it; failing that (transcripts written before results said so), any network or MCP call that ran
 * taints, whether it failed or not: a 404 page or an MCP error carries outside text too. Only a
 * call known not to have run (refused by the policy, denied by the person) is left out; when in
 * doubt (a call whose arguments did not validate) it taints, which only pauses grants.
 */
export function taintFromEvents(events: readonly RunEvent[]): RunTaint {
  const started = new Map<string, Extract<RunEvent, { type: 'tool-call-started' }>>();
  const notRun = new Set<string>();
  for (const event of events) {
    if (event.type === 'tool-call-started') started.set(event.callId, event);
    if (event.type === 'permission-decided' && event.decision === 'refuse') {
      notRun.add(event.callId);
    }
    if (event.type === 'approval-resolved' && !isAllow(event.answer)) notRun.add(event.callId);
    if (event.type !== 'tool-result') continue;
    if (event.taintedBy !== undefined) return { taintedBy: event.taintedBy };
    if (notRun.has(event.callId)) continue;
    const call = started.get(event.callId);
    if (!call || (call.effect !== 'network' && !call.name.startsWith('mcp__'))) continue;
    const url = (call.args as { url?: unknown } | null)?.url;
    return {
      taintedBy: typeof url === 'string' ? `after reading ${url}` : `after running ${call.name}`,
    };
  }
  return {};
}

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/**
 * Reads of one turn run side by side, this many at a time: a turn may hold 128 calls, and each
 * running call holds a file and a timer.
 */
export const MAX_CONCURRENT_READS = 8;

/**
 * The most listeners one call holds on its turn's signal at once: the gate's (waiting its turn or
 * for the card's answer) and the asker's (the card), or, once it runs, the forward to its own.
 */
const LISTENERS_PER_CALL = 2;

// The secret masker brings re2js (about 300 KB of code): loaded by the first turn with tool calls
// (or the warm-up, src/main/agent/session-warm-up.ts), not before the first model request.
let secretMask: Promise<typeof import('./secret-mask')> | undefined;

export function loadSecretMask(): Promise<typeof import('./secret-mask')> {
  secretMask ??= import('./secret-mask');
  return secretMask;
}

/**
 * Answers every call, in order. Every call is shown at once (its start, and its card when it asks),
 * so the person sees what the whole turn proposes and may answer the cards together; the calls
 * still run in order: a run of consecutive reads side by side (at most MAX_CONCURRENT_READS at a
 * time), anything else alone, each only after the ones before it finished (`ready`). `onAnswered`
 * gets each batch's answers as soon as the batch ends, so the transcript holds what already ran
 * even if the app dies during a later call.
 */
export async function answerToolCalls(
  calls: readonly ChatToolCall[],
  deps: ToolCallDeps,
  taint: RunTaint,
  signal: AbortSignal,
  onAnswered: (answers: readonly ToolMessage[]) => void = () => {},
): Promise<ToolMessage[]> {
  const turn = turnSignal(signal, calls.length);
  try {
    return await answerTurn(calls, deps, taint, turn.signal, onAnswered);
  } finally {
    turn.release();
  }
}

/**
 * The turn's own stop signal: the run's stop reaches it through one listener, held only for the
 * turn. Every call of the turn may wait on it at once (in the gate, on its card, while it runs), so
 * its listener bound is the turn's size, not Node's default of 10.
 */
function turnSignal(run: AbortSignal, calls: number): { signal: AbortSignal; release(): void } {
  const turn = new AbortController();
  setMaxListeners(Math.max(defaultMaxListeners, calls * LISTENERS_PER_CALL), turn.signal);
  const forward = (): void => turn.abort(run.reason);
  if (run.aborted) forward();
  else run.addEventListener('abort', forward, { once: true });
  return { signal: turn.signal, release: () => run.removeEventListener('abort', forward) };
}

async function answerTurn(
  calls: readonly ChatToolCall[],
  deps: ToolCallDeps,
  taint: RunTaint,
  signal: AbortSignal,
  onAnswered: (answers: readonly ToolMessage[]) => void,
): Promise<ToolMessage[]> {
  // Both loaded by the first turn with tool calls (or the warm-up), not before the first request.
  const [{ maskSecrets }] = await Promise.all([loadSecretMask(), loadArgumentValidator()]);
  // A run of consecutive read calls forms one concurrent batch; any other call runs alone.
  const batches: number[][] = [];
  for (let index = 0; index < calls.length;) {
    const batch = [index];
    if (isRead(deps, calls[index])) {
      while (index + batch.length < calls.length && isRead(deps, calls[index + batch.length])) {
        batch.push(index + batch.length);
      }
    }
    batches.push(batch);
    index += batch.length;
  }
  let before: Promise<unknown> = Promise.resolve();
  const running = batches.map((batch, n) => {
    // The first batch has nothing ahead of it: no `ready`, so the gate judges its calls once
    // (with one, it judges, waits, and judges again on the state then).
    const ready = n === 0 ? undefined : before.then(() => undefined);
    const results = mapWithLimit(batch, MAX_CONCURRENT_READS, (i) =>
      answerOne(calls[i] as ChatToolCall, deps, taint, signal, ready, maskSecrets),
    );
    // The next batch waits for this one however it ended.
    before = results.catch(() => undefined);
    return results;
  });
  const answers: ToolMessage[] = new Array<ToolMessage>(calls.length);
  for (const [n, batch] of batches.entries()) {
    const results = await (running[n] as Promise<ToolMessage[]>);
    batch.forEach((i, k) => (answers[i] = results[k] as ToolMessage));
    onAnswered(results);
  }
  return answers;
}

/** Like Promise.all over `items`, with at most `limit` of them in flight; results in order. */
async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function isRead(deps: ToolCallDeps, call: ChatToolCall | undefined): boolean {
  const tool = call === undefined ? undefined : deps.registry.get(call.function.name);
  // An untrusted MCP server's "read" asks like a command: it waits its turn, one card at a time.
  return tool?.effect === 'read' && (tool.mcp === undefined || tool.mcp.trusted);
}

async function answerOne(
  call: ChatToolCall,
  deps: ToolCallDeps,
  taint: RunTaint,
  signal: AbortSignal,
  /** Resolves when every call before this one in the turn has finished; absent: there are none. */
  ready: Promise<void> | undefined,
  maskSecrets: typeof MaskSecrets,
): Promise<ToolMessage> {
  const started = Date.now();
  const prepared = deps.registry.prepare(call.function.name, call.function.arguments);
  deps.emit({
    type: 'tool-call-started',
    runId: deps.runId,
    callId: call.id,
    name: call.function.name,
    args: prepared.args,
    effect: prepared.tool?.effect ?? 'unknown',
    at: started,
  });
  // The call's own signal: the turn's stop reaches it, and so does the Stop of this one call. It
  // listens to the turn's signal only while it runs.
  const own = new AbortController();
  const forward = (): void => own.abort(signal.reason);
  // Set once it was allowed to run: a duration excludes the time the person took to decide.
  const ran: { from?: number; args?: unknown } = {};
  const answer = (
    ok: boolean,
    output: string,
    provenance?: string,
    taintedBy?: string,
    changes?: ChangeReport,
    images?: readonly ToolImage[],
  ): ToolMessage => {
    signal.removeEventListener('abort', forward);
    // The one place tool output becomes what the model reads: secret shapes are masked here, for
    // results, errors and refusals alike; the event keeps the original for the person.
    const { masked, secrets } = maskSecrets(output);
    deps.emit({
      type: 'tool-result',
      runId: deps.runId,
      callId: call.id,
      ok,
      output: masked,
      durationMs: ran.from === undefined ? 0 : Date.now() - ran.from,
      ...(own.signal.aborted ? { stopped: true } : {}),
      ...(provenance !== undefined ? { provenance } : {}),
      ...(taintedBy !== undefined ? { taintedBy } : {}),
      ...(changes !== undefined ? { changes } : {}),
      ...(images && images.length > 0 ? { images } : {}),
      ...(secrets.length > 0 ? { secrets, unmasked: output } : {}),
    });
    return { role: 'tool', tool_call_id: call.id, content: masked };
  };
  if (signal.aborted) return answer(false, CANCELLED_MESSAGE);
  if (!prepared.ok) return answer(false, prepared.message);

  const { tool, args } = prepared;
  const tail = new OutputTail();
  const ctx: ToolContext = {
    folder: deps.folder,
    sessionId: deps.sessionId,
    callId: call.id,
    signal,
    onOutput: (chunk) => {
      tail.add(chunk);
      deps.emit({ type: 'tool-output', runId: deps.runId, callId: call.id, chunk });
    },
    services: deps.services,
  };
  const verdict = await askGate(
    {
      runId: deps.runId,
      callId: call.id,
      tool,
      args,
      ctx,
      ...(ready ? { ready } : {}),
      // The person may edit the call on its card; the edit is validated like the model's args.
      revalidate: (edited) => {
        const again = deps.registry.prepare(tool.name, JSON.stringify(edited));
        return again.ok ? { ok: true, args: again.args } : { ok: false, message: again.message };
      },
      // Read when the gate decides: a call before this one in the turn may bring the taint.
      get taintedBy() {
        return taint.taintedBy;
      },
    },
    deps,
    signal,
  );
  // Whatever the gate did, nothing runs before the calls ahead of it have finished.
  if (ready) await ready;
  if (signal.aborted) return answer(false, CANCELLED_MESSAGE);
  if (verdict.kind === 'refuse') return answer(false, verdict.message);

  ran.from = Date.now();
  // What runs: the model's arguments, or the person's edit of them (already judged by the gate).
  ran.args = verdict.args !== undefined ? verdict.args : args;
  signal.addEventListener('abort', forward, { once: true });
  const unregister = deps.callStops?.register(call.id, own) ?? (() => {});
  let result;
  try {
    result = await deps.registry.execute(tool, ran.args, {
      ...ctx,
      signal: own.signal,
      permit: verdict.permit,
    });
  } finally {
    unregister();
    // The run's signal outlives the call: a listener left on it would keep the call alive.
    signal.removeEventListener('abort', forward);
  }
  if (result.outcome === 'cancelled' && own.signal.aborted && !signal.aborted) {
    // The person stopped this call alone: the model hears so, with what it printed before.
    return answer(false, stoppedByPerson(Date.now() - ran.from, tail.text()), verdict.provenance);
  }
  const outside =
    result.outsideContent ??
    (tool.effect === 'network' || tool.name.startsWith('mcp__')
      ? describeTaint(tool.name, () => tool.target?.(ran.args as never, ctx))
      : undefined);
  // The first outside content names the taint; the result that brought it in records it.
  const tainting = outside !== undefined && taint.taintedBy === undefined ? outside : undefined;
  if (tainting !== undefined) taint.taintedBy = tainting;
  const output =
    verdict.args !== undefined
      ? `${editNote(tool.editable, ran.args)}\n\n${result.output}`
      : result.output;
  return answer(result.ok, output, verdict.provenance, tainting, result.changes, result.images);
}

/** The last few thousand characters a call printed, colours removed, for a stop message. */
class OutputTail {
  private kept = '';

  add(chunk: string): void {
    this.kept = (this.kept + chunk).slice(-TAIL_CHARS);
  }

  text(): string {
    return stripAnsi(this.kept).replace(/\r\n?/g, '\n').trim();
  }
}

const TAIL_CHARS = 4000;

function stoppedByPerson(ms: number, printed: string): string {
  const seconds = (ms / 1000).toFixed(1);
  const head = `Stopped by the person after ${seconds} s: the call did not finish (a command and everything it started were killed). The run goes on.`;
  return printed ? `${head}\nOutput before the stop (the end of it):\n${printed}` : head;
}

/** The first line of a result the person edited: the model must not think its version ran. */
function editNote(editable: AnyTool['editable'], args: unknown): string {
  const fields = (typeof args === 'object' && args !== null ? args : {}) as {
    command?: unknown;
  };
  if (editable === 'command' && typeof fields.command === 'string') {
    return `The person edited this command before allowing it. What ran instead of yours:\n${fields.command}`;
  }
  return 'The person edited this call before allowing it: what ran differs from what you proposed (for a write, read the file to see what was written).';
}

function describeTaint(name: string, target: () => ToolTarget | undefined): string {
  try {
    const what = target();
    if (what?.kind === 'url') return `after reading ${what.url}`;
  } catch {
    // A target that cannot be computed still taints; it just names the tool instead.
  }
  return `after running ${name}`;
}

/** A gate that throws refuses: the call is answered and the run goes on. */
async function askGate(
  request: GateRequest,
  deps: ToolCallDeps,
  signal: AbortSignal,
): Promise<GateVerdict> {
  try {
    return await deps.gate(request, deps.emit, signal);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'refuse',
      message: `Error: the permission check failed (${reason}); the call did not run.`,
    };
  }
}
