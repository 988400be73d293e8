// A RunController that plays a fixed run: read a file, then ask to run a command. It stands in
// for the agent at the IPC seam so the window's session view can be driven end to end; it keeps
// the broker's rules that matter to the window (an answer only for a pending request, once,
// with the hash of the arguments that were shown).
import type { AlwaysRulePreview, ChangedFile, RevertOutcome } from '../../src/shared/api';
import type { RunEvent } from '../../src/shared/events';
import type { ApprovalAnswer } from '../../src/shared/tool-types';
import { isAllow } from '../../src/shared/tool-types';
import type { CurrentSession, RunController } from '../../src/main/ipc/run-controller';
import { previewAlwaysChoices } from '../../src/main/permissions/always-rule-preview';
import { exactRule } from '../../src/main/permissions/permission-rule';
import { realPolicyDeps } from '../../src/main/permissions/real-policy-deps';

export const SCRIPTED_COMMAND = 'npm test -- --reporter=dot';

export class ScriptedRunController implements RunController {
  readonly answers: ApprovalAnswer[] = [];
  private readonly listeners = new Set<(sessionId: string, event: RunEvent) => void>();
  private pending: { requestId: string; argsHash: string; runId: string } | null = null;
  private runs = 0;

  constructor(private readonly folder: string) {}

  onEvent(listener: (sessionId: string, event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async compactSession(): Promise<{ ok: boolean; message: string }> {
    return {
      ok: false,
      message: 'Nothing to compact yet: the conversation holds only its latest turns.',
    };
  }

  async startRun(task: string): Promise<{ runId: string; sessionId: string }> {
    if (this.pending) throw new Error('A run is already waiting for your answer.');
    this.runs += 1;
    const runId = `run-${this.runs}`;
    const at = Date.now();
    // Events go out after the reply, as a real runner's would.
    setTimeout(() => {
      this.emit({ type: 'run-started', runId, sessionId: 'session-1', task, at });
      for (const text of ['I will read the **package.json** ', 'and then run the tests.']) {
        this.emit({ type: 'assistant-delta', runId, text });
      }
      this.emit({
        type: 'tool-call-started',
        runId,
        callId: 'call-1',
        name: 'read_file',
        args: { path: 'package.json' },
        effect: 'read',
        at,
      });
      this.emit({
        type: 'tool-result',
        runId,
        callId: 'call-1',
        ok: true,
        output: '{ "name": "demo" }',
        durationMs: 3,
        provenance: 'read-only',
      });
      this.emit({
        type: 'tool-call-started',
        runId,
        callId: 'call-2',
        name: 'shell',
        args: { command: SCRIPTED_COMMAND },
        effect: 'exec',
        at,
      });
      this.emit({
        type: 'permission-decided',
        runId,
        callId: 'call-2',
        decision: 'ask',
        reasons: ['npm test runs project code'],
      });
      this.pending = { requestId: 'request-1', argsHash: 'hash-1', runId };
      this.emit({
        type: 'approval-requested',
        runId,
        requestId: 'request-1',
        callId: 'call-2',
        name: 'shell',
        args: { command: SCRIPTED_COMMAND },
        argsHash: 'hash-1',
        effect: 'exec',
        preview: {
          kind: 'command',
          command: SCRIPTED_COMMAND,
          cwd: this.folder,
          parts: [
            {
              text: SCRIPTED_COMMAND,
              argv: ['npm', 'test', '--', '--reporter=dot'],
              safe: false,
              reasons: ['npm test runs project code'],
            },
          ],
          sandbox: {
            kind: 'bwrap',
            available: true,
            description: 'bubblewrap: system read-only, project read-write, network off',
          },
        },
        reasons: ['npm test runs project code'],
        at,
      });
    }, 0);
    return { runId, sessionId: 'session-1' };
  }

  async answerApproval(requestId: string, argsHash: string, answer: ApprovalAnswer): Promise<void> {
    const pending = this.pending;
    if (!pending || pending.requestId !== requestId)
      throw new Error(`No pending approval "${requestId}".`);
    if (pending.argsHash !== argsHash)
      throw new Error('The arguments changed since they were shown.');
    this.pending = null;
    this.answers.push(answer);
    const { runId } = pending;
    const at = Date.now();
    this.emit({
      type: 'approval-resolved',
      runId,
      requestId,
      callId: 'call-2',
      answer,
      by: 'person',
      at,
    });
    if (isAllow(answer)) {
      this.emit({ type: 'tool-output', runId, callId: 'call-2', chunk: '....\n4 passing\n' });
      this.emit({
        type: 'tool-result',
        runId,
        callId: 'call-2',
        ok: true,
        output: '4 passing',
        durationMs: 1200,
        provenance: 'you allowed it',
      });
      this.emit({ type: 'assistant-message', runId, text: 'All **4 tests** pass.' });
    } else {
      this.emit({
        type: 'tool-result',
        runId,
        callId: 'call-2',
        ok: false,
        output: 'Denied by the person.',
        durationMs: 0,
      });
      this.emit({
        type: 'assistant-message',
        runId,
        text: 'Understood, I will not run the tests.',
      });
    }
    this.emit({
      type: 'context-use',
      runId,
      tokens: 1180,
      windowTokens: 128_000,
      answerTokens: 16_384,
      windowSource: 'table',
      counter: 'o200k_base',
    });
    this.emit({
      type: 'usage',
      runId,
      usage: { promptTokens: 1200, completionTokens: 80, totalTokens: 1280 },
    });
    this.emit({ type: 'run-finished', runId, reason: 'done' });
  }

  // The scripted run has no tool schema to check an edit against.
  async answerEdited(): Promise<void> {
    throw new Error('Edit not accepted: this scripted run cannot edit calls.');
  }

  async previewAlwaysRule(requestId: string): Promise<AlwaysRulePreview> {
    if (this.pending?.requestId !== requestId)
      throw new Error(`No pending approval "${requestId}".`);
    // The engine's own choices for the shown command, over no earlier calls.
    const rule = exactRule(SCRIPTED_COMMAND.split(' '));
    return previewAlwaysChoices([rule], [], this.folder, realPolicyDeps);
  }

  // The scripted command finishes at once: nothing is ever running to type into or undo.
  async sendTerminalInput(): Promise<boolean> {
    return false;
  }

  async revertCall(callId: string): Promise<RevertOutcome> {
    return { ok: false, message: `${callId} changed no files.`, files: [] };
  }

  async revertRun(runId: string): Promise<RevertOutcome> {
    return { ok: false, message: `${runId} changed no files.`, files: [] };
  }

  async previewRevertRun(): Promise<readonly string[]> {
    return [];
  }

  async stopCall(): Promise<boolean> {
    return false;
  }

  async sessionChanges(): Promise<readonly ChangedFile[]> {
    return [];
  }

  async revertFiles(): Promise<RevertOutcome> {
    return { ok: false, message: 'This scripted session changed no files.', files: [] };
  }

  // One session only: the scripted runs all go to "session-1".
  currentSession(): CurrentSession {
    return { id: 'session-1', running: this.pending !== null };
  }

  async openSession(): Promise<void> {}

  async newSession(): Promise<void> {}

  async stopRun(runId: string): Promise<void> {
    if (this.pending?.runId === runId) this.pending = null;
    this.emit({ type: 'run-finished', runId, reason: 'stopped' });
  }

  private emit(event: RunEvent): void {
    for (const listener of [...this.listeners]) listener('session-1', event);
  }
}
