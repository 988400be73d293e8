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
import type { RunEvent } from '../../shared/events';
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
  /** Lines that could not be read (a torn last line after a crash). */
  readonly skippedLines: number;
}

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
    writeSync(this.fd, JSON.stringify(line) + '\n');
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

/** Reads a transcript; `isMessage` checks each stored message (a line that fails is skipped). */
export function readTranscript<M>(
  file: string,
  isMessage: (value: unknown) => value is M,
): LoadedTranscript<M> {
  const messages: M[] = [];
  const events: RunEvent[] = [];
  const metas: Record<string, unknown>[] = [];
  let skippedLines = 0;
  if (!existsSync(file)) return { messages, events, metas, skippedLines };
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      skippedLines++;
      continue;
    }
    if (typeof line !== 'object' || line === null) {
      skippedLines++;
      continue;
    }
    const record = line as Record<string, unknown>;
    if (record.kind === 'message' && isMessage(record.message)) messages.push(record.message);
    else if (record.kind === 'event' && isRunEventLike(record.event)) events.push(record.event);
    else if (record.kind === 'meta') metas.push(record);
    else skippedLines++;
  }
  return { messages, events, metas, skippedLines };
}

function isRunEventLike(value: unknown): value is RunEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}
