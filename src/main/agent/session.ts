// A session: the conversation (messages) and its transcript. New sessions start a file; a
// reopened session loads its messages from the file and continues appending to it.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { ChangeReport } from '../../shared/change-report';
import type { RunEvent } from '../../shared/events';
import { readTranscript, sessionsDir, transcriptPath, TranscriptWriter } from '../store/transcript';
import { chatMessageSchema, type ChatMessage } from './chat-message';
import { RecordedOutputCap } from './recorded-output-cap';

/** What a call that a crash left without an answer really did (found on disk on reopen). */
export interface InterruptedAnswer {
  readonly ok: boolean;
  readonly output: string;
  readonly changes?: ChangeReport;
}

export class Session {
  private readonly outputCap = new RecordedOutputCap();

  private constructor(
    readonly id: string,
    readonly file: string,
    private readonly history: ChatMessage[],
    private readonly transcript: TranscriptWriter,
    /** Events loaded from the file when the session was reopened. */
    readonly pastEvents: readonly RunEvent[],
    /** Why lines of the file were skipped when it was reopened (empty for a sound file). */
    readonly loadProblems: readonly string[] = [],
  ) {}

  static create(dataDir: string, folder: string, meta: Record<string, unknown> = {}): Session {
    const id = newSessionId();
    const file = transcriptPath(dataDir, folder, id);
    const writer = new TranscriptWriter(file);
    writer.appendMeta({ type: 'session-created', sessionId: id, folder, ...meta });
    return new Session(id, file, [], writer, []);
  }

  static open(
    dataDir: string,
    folder: string,
    id: string,
    interrupted: (callId: string) => InterruptedAnswer | undefined = () => undefined,
  ): Session {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new Error(`"${id}" is not a session id`);
    const file = transcriptPath(dataDir, folder, id);
    if (!existsSync(file)) throw new Error(`no session ${id} for ${folder}`);
    const loaded = readTranscript(file, chatMessageSchema());
    const writer = new TranscriptWriter(file);
    const problems = [...loaded.problems];
    // A call a crash cut off gets the answer found on disk, recorded like any result.
    const found = answersForInterrupted(loaded.events, interrupted);
    const events = [...loaded.events, ...found];
    const history = repairHistory(loaded.messages, events, (problem) => problems.push(problem));
    writer.appendMeta({
      type: 'session-reopened',
      sessionId: id,
      skippedLines: loaded.skippedLines,
      ...(problems.length ? { problems } : {}),
    });
    for (const event of found) writer.appendEvent(event);
    return new Session(id, file, history, writer, events, problems);
  }

  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  append(message: ChatMessage): void {
    this.history.push(message);
    this.transcript.appendMessage(message);
  }

  record(event: RunEvent): void {
    // Deltas are the streamed form of `assistant-message`, which is recorded whole.
    if (event.type === 'assistant-delta') return;
    for (const recorded of this.outputCap.filter(event)) this.transcript.appendEvent(recorded);
  }

  close(): void {
    this.transcript.close();
  }
}

/** Session ids, newest first (ids start with a timestamp). */
export function listSessionIds(dataDir: string, folder: string): string[] {
  const dir = sessionsDir(dataDir, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => name.slice(0, -'.jsonl'.length))
    .sort()
    .reverse();
}

function newSessionId(): string {
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}-${randomUUID().slice(0, 8)}`;
}

function answersForInterrupted(
  events: readonly RunEvent[],
  interrupted: (callId: string) => InterruptedAnswer | undefined,
): RunEvent[] {
  const answered = new Set<string>();
  for (const event of events) if (event.type === 'tool-result') answered.add(event.callId);
  const answers: RunEvent[] = [];
  for (const event of events) {
    if (event.type !== 'tool-call-started' || answered.has(event.callId)) continue;
    const answer = interrupted(event.callId);
    if (!answer) continue;
    answered.add(event.callId);
    answers.push({
      type: 'tool-result',
      runId: event.runId,
      callId: event.callId,
      ok: answer.ok,
      output: answer.output,
      durationMs: 0,
      ...(answer.changes ? { changes: answer.changes } : {}),
    });
  }
  return answers;
}

/**
 * A crash can leave an assistant message whose tool calls were never answered; the API rejects
 * such a history, so the missing answers are filled in. A call whose `tool-result` event was
 * recorded did run: its answer is that output (what the model would have been given); only the
 * calls without one are reported as not run. An answer whose call is not in the message before
 * it (that line was damaged and skipped) is dropped, as the API rejects it too.
 */
export function repairHistory(
  messages: readonly ChatMessage[],
  events: readonly RunEvent[] = [],
  report: (problem: string) => void = () => {},
): ChatMessage[] {
  const results = new Map<string, string>();
  for (const event of events)
    if (event.type === 'tool-result') results.set(event.callId, event.output);
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ChatMessage;
    if (message.role === 'tool') {
      report(
        `an answer to call ${message.tool_call_id.slice(0, 100)} without its call was dropped`,
      );
      continue;
    }
    out.push(message);
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
    const answers = new Map<string, ChatMessage>();
    const calls = new Set(message.tool_calls.map((call) => call.id));
    while (messages[i + 1]?.role === 'tool') {
      const answer = messages[++i] as Extract<ChatMessage, { role: 'tool' }>;
      if (calls.has(answer.tool_call_id) && !answers.has(answer.tool_call_id))
        answers.set(answer.tool_call_id, answer);
      else
        report(
          `an answer to call ${answer.tool_call_id.slice(0, 100)} without its call was dropped`,
        );
    }
    // Answers go in the order of the calls, as the runner would have appended them.
    for (const call of message.tool_calls) {
      out.push(
        answers.get(call.id) ?? {
          role: 'tool',
          tool_call_id: call.id,
          content: results.get(call.id) ?? 'not run: the session was interrupted',
        },
      );
    }
  }
  return out;
}
