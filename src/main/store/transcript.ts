// Append-only JSONL transcript of one session: one complete line per event or message, written
// as it happens, so a crash loses at most the line being written.
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  fstatSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { RunEvent } from '../../shared/events';
import { runEventSchema } from '../../shared/run-event-schema';
import { safeJsonStringify } from '../../shared/safe-json';
import { projectDataDir } from './data-dir';
import { ensurePrivateDir, openPrivateFile } from './private-files';

export type TranscriptLine =
  | { readonly kind: 'event'; readonly at: number; readonly event: RunEvent }
  /** A chat message in the OpenAI wire format (the agent owns its shape). */
  | { readonly kind: 'message'; readonly at: number; readonly message: unknown }
  | { readonly kind: 'meta'; readonly at: number; readonly [field: string]: unknown };

export interface LoadedTranscript<M> {
  readonly messages: M[];
  readonly events: RunEvent[];
  readonly metas: Record<string, unknown>[];
  /** Lines that could not be read (a torn last line after a crash, a damaged record). */
  readonly skippedLines: number;
  /** Why lines were skipped, one sentence each ("line 7: message.tool_calls.0.id: …"), at most 20. */
  readonly problems: readonly string[];
}

const MAX_PROBLEMS_LISTED = 20;

export function sessionsDir(dataDir: string, realFolder: string): string {
  return join(projectDataDir(dataDir, realFolder), 'sessions');
}

export function transcriptPath(dataDir: string, realFolder: string, sessionId: string): string {
  return join(sessionsDir(dataDir, realFolder), `${sessionId}.jsonl`);
}

export class TranscriptWriter {
  private fd: number | undefined;

  constructor(readonly file: string) {
    ensurePrivateDir(dirname(file));
    const torn = !endsWithNewline(file);
    this.fd = openPrivateFile(file, 'a');
    // After a crash the last line may be torn; start ours on a fresh line so both stay apart.
    if (torn) writeSync(this.fd, '\n');
  }

  appendMessage(message: unknown, at: number = Date.now()): void {
    this.write({ kind: 'message', at, message });
  }

  appendEvent(event: RunEvent, at: number = Date.now()): void {
    this.write({ kind: 'event', at, event });
  }

  appendMeta(fields: Record<string, unknown>, at: number = Date.now()): void {
    this.write({ ...fields, kind: 'meta', at });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private write(line: TranscriptLine): void {
    if (this.fd === undefined) throw new Error(`transcript ${this.file} is closed`);
    // One write call per line: the line lands whole or, on a crash, torn at the very end.
    // Lines carry model-made values: a safe stringify, so no value can end the run here.
    writeSync(this.fd, safeJsonStringify(line) + '\n');
  }
}

function endsWithNewline(file: string): boolean {
  if (!existsSync(file)) return true;
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** Reads a transcript; each stored message and event is checked, and a line that fails is skipped. */
export function readTranscript<M>(file: string, messageSchema: z.ZodType<M>): LoadedTranscript<M> {
  if (!existsSync(file)) {
    return { messages: [], events: [], metas: [], skippedLines: 0, problems: [] };
  }
  return parseTranscript(readFileSync(file, 'utf8'), messageSchema);
}

/** A transcript's text (JSONL), checked line by line like readTranscript. */
export function parseTranscript<M>(text: string, messageSchema: z.ZodType<M>): LoadedTranscript<M> {
  const messages: M[] = [];
  const events: RunEvent[] = [];
  const metas: Record<string, unknown>[] = [];
  const problems: string[] = [];
  let skippedLines = 0;
  const skip = (lineNumber: number, reason: string): void => {
    skippedLines++;
    if (problems.length < MAX_PROBLEMS_LISTED) problems.push(`line ${lineNumber}: ${reason}`);
  };
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    let line: unknown;
    try {
      line = JSON.parse(raw);
    } catch {
      skip(index + 1, 'not JSON (a line cut short by a crash?)');
      return;
    }
    if (typeof line !== 'object' || line === null || Array.isArray(line)) {
      skip(index + 1, 'not a record');
      return;
    }
    const record = line as Record<string, unknown>;
    switch (record.kind) {
      case 'message': {
        const parsed = messageSchema.safeParse(record.message);
        if (parsed.success) messages.push(parsed.data);
        else skip(index + 1, `a damaged message (${firstIssue('message', parsed.error)})`);
        return;
      }
      case 'event': {
        const parsed = runEventSchema().safeParse(record.event);
        if (parsed.success) events.push(parsed.data);
        else skip(index + 1, `a damaged event (${firstIssue('event', parsed.error)})`);
        return;
      }
      case 'meta':
        metas.push(record);
        return;
      default:
        skip(index + 1, 'a record of no known kind');
    }
  });
  return { messages, events, metas, skippedLines, problems };
}

function firstIssue(root: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = [root, ...issue.path.map(String)].join('.');
  return `${path}: ${issue.message}`.slice(0, 200);
}
