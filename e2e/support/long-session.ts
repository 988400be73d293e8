// A long session for the window's benchmark and its long-trace spec: per shell call its start,
// the decision, 10 KiB of coloured output in 1 KiB chunks and the result, with a line from the
// agent every 50 calls. Written as a transcript (to reopen) or streamed live by a RunController.
import type { RevertOutcome } from '../../src/shared/api';
import type { RunEvent } from '../../src/shared/events';
import type { CurrentSession, RunController } from '../../src/main/ipc/run-controller';
import { transcriptPath, TranscriptWriter } from '../../src/main/store/transcript';

const CHUNKS_PER_CALL = 10;
const CHUNK = `${'\u001b[32mok\u001b[0m '.repeat(60)}${'x'.repeat(588)}\n`.slice(0, 1024);
export const LONG_TASK = 'Run every test file';

/** The agent's last line after `calls` calls. */
export function lastLine(calls: number): string {
  return `All ${calls} files ran; ${Math.ceil(calls / 17)} failed.`;
}

export function* longSessionEvents(
  runId: string,
  sessionId: string,
  calls: number,
): Generator<RunEvent> {
  yield { type: 'run-started', runId, sessionId, task: LONG_TASK, at: Date.now() };
  for (let i = 0; i < calls; i++) {
    const callId = `call_${i}`;
    yield {
      type: 'tool-call-started',
      runId,
      callId,
      name: 'shell',
      args: { command: `node --test test/case-${i}.test.js` },
      effect: 'exec',
      at: Date.now(),
    };
    yield {
      type: 'permission-decided',
      runId,
      callId,
      decision: 'run',
      reasons: [],
      at: Date.now(),
    };
    for (let k = 0; k < CHUNKS_PER_CALL; k++) {
      yield { type: 'tool-output', runId, callId, chunk: CHUNK };
    }
    yield {
      type: 'tool-result',
      runId,
      callId,
      ok: i % 17 !== 0,
      output: `${CHUNK.slice(0, 200)}\n\nexit code ${i % 17 === 0 ? 1 : 0} · 0.4 s · sandbox: bwrap`,
      durationMs: 400,
      provenance: "this project's rule for `node --test` with any further words",
    };
    if (i % 50 === 49) {
      yield { type: 'assistant-message', runId, text: `Ran ${i + 1} of ${calls} files.` };
    }
  }
  yield { type: 'assistant-message', runId, text: lastLine(calls) };
  yield { type: 'run-finished', runId, reason: 'done' };
}

/** Writes the session as the agent writes transcripts; returns its event and output counts. */
export function writeLongSession(
  dataDir: string,
  folder: string,
  sessionId: string,
  calls: number,
): { events: number; outputBytes: number } {
  const writer = new TranscriptWriter(transcriptPath(dataDir, folder, sessionId));
  writer.appendMeta({ type: 'session-created', sessionId, folder });
  let events = 0;
  let outputBytes = 0;
  for (const event of longSessionEvents('recorded', sessionId, calls)) {
    if (event.type === 'tool-output') outputBytes += event.chunk.length;
    events++;
    writer.appendEvent(event);
  }
  writer.close();
  return { events, outputBytes };
}

/** Streams a long session live, a call at a time, yielding to the event loop between calls. */
export class StreamingRunController implements RunController {
  private readonly listeners = new Set<(sessionId: string, event: RunEvent) => void>();
  /** Settles when the last event of the latest run was sent. */
  finished: Promise<void> = Promise.resolve();
  private runs = 0;

  constructor(private readonly calls: number) {}

  onEvent(listener: (sessionId: string, event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async startRun(): Promise<{ runId: string; sessionId: string }> {
    const runId = `live-${++this.runs}`;
    const sessionId = `live-session-${this.runs}`;
    this.finished = (async () => {
      // After the reply, as a real runner's events come.
      await new Promise((r) => setTimeout(r, 0));
      let n = 0;
      for (const event of longSessionEvents(runId, sessionId, this.calls)) {
        for (const listener of this.listeners) listener(sessionId, event);
        // A pause per call, as a real command's output arrives over time.
        if (++n % (CHUNKS_PER_CALL + 3) === 0) await new Promise((r) => setTimeout(r, 1));
      }
    })();
    return { runId, sessionId };
  }

  async stopRun(): Promise<void> {}
  async compactSession(): Promise<{ ok: boolean; message: string }> {
    return { ok: false, message: 'Nothing to compact in this bench session.' };
  }
  async stopCall(): Promise<boolean> {
    return false;
  }
  async answerApproval(): Promise<void> {
    throw new Error('No approval is pending in this run.');
  }
  async answerEdited(): Promise<void> {
    throw new Error('No approval is pending in this run.');
  }
  async previewAlwaysRule(): Promise<never> {
    throw new Error('No approval is pending in this run.');
  }
  async sendTerminalInput(): Promise<boolean> {
    return false;
  }
  async revertCall(): Promise<RevertOutcome> {
    return { ok: false, message: 'This run changed no files.', files: [] };
  }
  async revertRun(): Promise<RevertOutcome> {
    return { ok: false, message: 'This run changed no files.', files: [] };
  }
  async previewRevertRun(): Promise<readonly string[]> {
    return [];
  }
  async sessionChanges(): Promise<readonly never[]> {
    return [];
  }
  async revertFiles(): Promise<RevertOutcome> {
    return { ok: false, message: 'This run changed no files.', files: [] };
  }
  currentSession(): CurrentSession | null {
    return null;
  }
  async openSession(): Promise<void> {}
  async newSession(): Promise<void> {}
}
