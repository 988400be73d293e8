// The journal's file: one JSON record per line, appended with a single write each (a crash tears
// at most the last line), read back through the record schemas. Intent records are flushed to
// disk (fdatasync) before the change they announce; completions need not be, as reconcile can
// rebuild them from what is on disk.
import { closeSync, fdatasyncSync, fstatSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openPrivateFile } from '../store/private-files';
import { parseJournalLine, type JournalRecord } from './journal-record';

export interface LoadedLog {
  readonly records: JournalRecord[];
  /**
   * Lines that were not valid records (a torn last line, `null`, garbage), skipped: one sentence
   * each, naming the file and line.
   */
  readonly problems: string[];
}

export function loadJournalLog(dir: string): LoadedLog {
  const file = join(dir, 'journal.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { records: [], problems: [] };
  }
  const records: JournalRecord[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const parsed = parseJournalLine(line);
    if (parsed.ok) records.push(parsed.line);
    else problems.push(`${file} line ${index + 1}: ${parsed.reason}`);
  });
  return { records, problems };
}

export class JournalLog {
  private fd: number | undefined;

  constructor(private readonly dir: string) {}

  /** Appends one record; `durable` waits until it is on disk. */
  append(record: JournalRecord, durable: boolean): void {
    const fd = this.open();
    writeSync(fd, JSON.stringify(record) + '\n');
    if (durable) fdatasyncSync(fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    const fd = openPrivateFile(join(this.dir, 'journal.jsonl'), 'a+');
    // A torn last line from a crash: start ours on a fresh line so both stay apart.
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) writeSync(fd, '\n');
    }
    this.fd = fd;
    return fd;
  }
}
