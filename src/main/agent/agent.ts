// The front door for the window and the CLI: one agent per session, runs started by task, events
// through listeners, stop by run id, and a session reopened from its transcript to continue.
import { randomUUID } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { platform, release } from 'node:os';
import type { RunEvent, RunFinishReason } from '../../shared/events';
import type { PermissionGate } from '../permissions/gate';
import type { ToolRegistry } from '../tools/registry';
import type { ToolServices } from '../tools/tool';
import { CallStops } from './call-stops';
import type { ModelPrices } from '../../shared/model-settings';
import type { ChatMessage } from './chat-message';
import { restoredCompaction } from './context';
import type { ChatProvider } from './provider';
import { DEFAULT_MAX_STEPS, runLoop } from './runner';
import { createSessionContext, type PromptSource } from './session-context';
import { Session, type InterruptedAnswer } from './session';
import { taintFromEvents } from './tool-calls';
import { compactOnRequest, type CompactResult } from './compact-on-request';

export interface AgentOptions {
  readonly provider: ChatProvider;
  readonly registry: ToolRegistry;
  readonly gate: PermissionGate;
  /** The project folder; resolved to its real path. */
  readonly folder: string;
  /** Where transcripts live (see store/data-dir.ts). */
  readonly dataDir: string;
  readonly services?: ToolServices;
  readonly maxSteps?: number;
  /** The model's window as the person gives it (a flag, Settings); else it is looked up. */
  readonly contextTokens?: number;
  /** The model's prices, for the cost of the session. */
  readonly prices?: ModelPrices;
  /** Reopen this session from its transcript instead of starting a new one. */
  readonly sessionId?: string;
  /** Replaces the built system prompt (tests, embedders). */
  readonly systemPrompt?: string;
  /** What a call a crash left unanswered really did (from the journal), for a reopened session. */
  readonly interruptedCall?: (callId: string) => InterruptedAnswer | undefined;
  /**
   * Awaited at the start of each run, before the first model request: e.g. a bounded wait for
   * MCP servers still starting, so their tools are offered from the first turn.
   */
  readonly beforeRun?: (signal: AbortSignal) => Promise<void>;
}

export interface RunHandle {
  readonly runId: string;
  readonly sessionId: string;
  /** Settles when the run ends; never rejects. */
  readonly done: Promise<RunFinishReason>;
}

export interface Agent {
  readonly sessionId: string;
  readonly folder: string;
  /** Transcript file of the session. */
  readonly transcriptFile: string;
  /** Starts a run; throws if one is already running in this session. */
  startRun(task: string): RunHandle;
  /** Stops a run: aborts the model request, running tools and pending approvals. */
  stop(runId: string): void;
  /** Stops one running call (a command) and lets the run go on; false when it is not running. */
  stopCall(callId: string): boolean;
  onEvent(listener: (event: RunEvent) => void): () => void;
  messages(): readonly ChatMessage[];
  /** Events of earlier runs loaded from the transcript when the session was reopened. */
  pastEvents(): readonly RunEvent[];
  /**
   * Records that the person undid files (a `files-reverted` event in the transcript and to the
   * listeners) and tells the model: `note` goes into the conversation before its next request.
   */
  recordRevert(
    revert: Omit<Extract<RunEvent, { type: 'files-reverted' }>, 'type' | 'at'>,
    note: string,
  ): void;
  /** Damaged transcript lines skipped when the session was reopened, one sentence each. */
  loadProblems(): readonly string[];
  readonly activeRunId: string | undefined;
  /**
   * Summarises the older part of the conversation now (the person asked); refused while a run
   * is going. Never rejects.
   */
  compact(): Promise<CompactResult>;
  /** Stops any run and closes the transcript. */
  close(): Promise<void>;
}

export function createAgent(options: AgentOptions): Agent {
  const folder = realFolder(options.folder);
  const session = options.sessionId
    ? Session.open(options.dataDir, folder, options.sessionId, options.interruptedCall)
    : Session.create(options.dataDir, folder, {
        model: options.provider.model,
        baseUrl: options.provider.baseUrl,
      });
  const listeners = new Set<(event: RunEvent) => void>();
  const callStops = new CallStops();
  // Notes for the model that arrived during a run: added before its next request.
  const pendingNotes: string[] = [];
  // Content from the network stays in the history, so its taint lasts for the whole session.
  const taint = taintFromEvents(session.pastEvents);
  const restored = restoredCompaction(session.messages, session.pastEvents);
  const loadProblems = [...session.loadProblems, ...(restored.problem ? [restored.problem] : [])];
  // The prompt's inputs are fixed for the agent's life, so its bytes stay the same between runs
  // unless the project's instructions change.
  const prompt: PromptSource = {
    folder,
    platform: `${platform()} ${release()}`,
    toolNames: () => options.registry.list().map((tool) => tool.name),
    date: new Date().toISOString().slice(0, 10),
    ...(options.systemPrompt !== undefined ? { fixed: options.systemPrompt } : {}),
  };
  const context = createSessionContext({
    provider: options.provider,
    ...(options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
    pastEvents: session.pastEvents,
    ...(restored.compaction ? { compaction: restored.compaction } : {}),
    prompt,
  });
  let active:
    { runId: string; controller: AbortController; done: Promise<RunFinishReason> } | undefined;

  const emit = (event: RunEvent): void => {
    session.record(event);
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A faulty listener must not break the run or the other listeners.
      }
    }
  };

  async function run(runId: string, task: string, signal: AbortSignal): Promise<RunFinishReason> {
    emit({ type: 'run-started', runId, sessionId: session.id, task, at: Date.now() });
    try {
      session.append({ role: 'user', content: task });
      await options.beforeRun?.(signal);
      const sessionContext = await context.get();
      const systemPrompt = await context.systemPrompt(runId, emit);
      const outcome = await runLoop(
        {
          provider: options.provider,
          registry: options.registry,
          gate: options.gate,
          folder,
          sessionId: session.id,
          services: options.services ?? {},
          systemPrompt,
          maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
          context: sessionContext,
          history: () => session.messages,
          append: (message) => session.append(message),
          emit,
          taint,
          callStops,
          takeNotes: () => pendingNotes.splice(0),
        },
        runId,
        signal,
      );
      emit({
        type: 'run-finished',
        runId,
        reason: outcome.reason,
        ...(outcome.message ? { message: outcome.message } : {}),
      });
      return outcome.reason;
    } catch (error) {
      // A bug in the loop still ends the run visibly instead of leaving it hanging.
      const message = `Internal error in Tandem: ${error instanceof Error ? error.message : String(error)}`;
      emit({ type: 'error', runId, message, retrying: false, fault: 'internal' });
      emit({ type: 'run-finished', runId, reason: 'error', message });
      return 'error';
    }
  }

  return {
    sessionId: session.id,
    folder,
    transcriptFile: session.file,
    get activeRunId() {
      return active?.runId;
    },
    startRun(task) {
      if (active) throw new Error(`a run is already in progress in session ${session.id}`);
      const runId = randomUUID();
      const controller = new AbortController();
      const done = run(runId, task, controller.signal).finally(() => {
        if (active?.runId === runId) active = undefined;
      });
      active = { runId, controller, done };
      return { runId, sessionId: session.id, done };
    },
    stop(runId) {
      if (active?.runId === runId) active.controller.abort(new Error('stopped by the person'));
    },
    stopCall: (callId) => callStops.stop(callId),
    async compact() {
      if (active) {
        return {
          ok: false,
          message: 'A run is going: compact when it has finished, or stop it first.',
        };
      }
      const runId = `compact-${randomUUID()}`;
      const controller = new AbortController();
      const result = compactOnRequest({
        runId,
        signal: controller.signal,
        provider: options.provider,
        registry: options.registry,
        context,
        history: () => session.messages,
        emit,
      });
      const done = result.then((r) => (r.ok ? 'done' : 'error') as RunFinishReason);
      active = { runId, controller, done };
      try {
        return await result;
      } finally {
        if (active?.runId === runId) active = undefined;
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    messages: () => session.messages,
    pastEvents: () => session.pastEvents,
    recordRevert(revert, note) {
      emit({ type: 'files-reverted', ...revert, at: Date.now() });
      // Between runs the history ends with a finished turn, where a user message may go now;
      // during a run it waits for the loop's next request (after the turn's tool answers).
      if (active) pendingNotes.push(note);
      else session.append({ role: 'user', content: note });
    },
    loadProblems: () => loadProblems,
    async close() {
      if (active) {
        active.controller.abort(new Error('closed'));
        await active.done;
      }
      session.close();
    },
  };
}

function realFolder(folder: string): string {
  let real: string;
  try {
    real = realpathSync(folder);
  } catch {
    throw new Error(`folder does not exist: ${folder}`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`not a folder: ${folder}`);
  return real;
}
