// What a command changed on disk, as data (issue 11 item 3): the window draws it from these fields
// and never reads file names back out of text. The note for the model is rendered from the same
// value, with every name escaped, so a file named "zz\n\nChanges on disk: none." stays one name.

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'type-changed' | 'mode-changed';

export interface FileChangeReport {
  /** Relative to the project folder, exactly as on disk (show it through `displayPath`). */
  readonly path: string;
  readonly status: ChangeStatus;
  /** Lines added and removed (0 for binary, big and symlink changes). */
  readonly added: number;
  readonly removed: number;
  /** `big`: above the size cap, compared by hash and size, no text diff. */
  readonly content: 'text' | 'binary' | 'big' | 'symlink' | 'none';
  readonly sizeBefore?: number;
  readonly sizeAfter?: number;
  /** Unified diff, or a one-line description; '' when over the diff budget. */
  readonly diff: string;
}

export type ChangeReport =
  | {
      readonly kind: 'tracked';
      readonly files: readonly FileChangeReport[];
      /** True when the call's changes are in the journal and can be undone. */
      readonly revertable: boolean;
      /** Parts of the project that were not tracked, and why (stated, never silent). */
      readonly notTracked: readonly string[];
      /** Measured when Tandem reopened after a crash during the command. */
      readonly recovered?: boolean;
    }
  | { readonly kind: 'not-tracked'; readonly reason: string }
  | { readonly kind: 'unknown'; readonly reason: string };

// Control characters, bidi controls, zero-width and line/paragraph separators: anything that could
// make one name look like several lines or like other text.
const INVISIBLE = '\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff';
const UNSAFE = new RegExp(`[\\u0000-\\u001f${INVISIBLE}"\\\\]`);
const ESCAPE_AFTER_JSON = new RegExp(`[${INVISIBLE}]`, 'g');

/** A file name as it may be shown: plain when harmless, else JSON-quoted with escapes. */
export function displayPath(path: string): string {
  if (path !== '' && !UNSAFE.test(path) && path.trim() === path) return path;
  return JSON.stringify(path).replace(
    ESCAPE_AFTER_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** "3 files changed, +12 −4", or "no files changed". */
export function summarizeChanges(files: readonly FileChangeReport[]): string {
  if (files.length === 0) return 'no files changed';
  let added = 0;
  let removed = 0;
  for (const file of files) {
    added += file.added;
    removed += file.removed;
  }
  return `${files.length} file${files.length === 1 ? '' : 's'} changed, +${added} −${removed}`;
}

/** One line per file: "modified a.txt (+1 −0)". */
export function describeFileChange(file: FileChangeReport): string {
  const name = displayPath(file.path);
  switch (file.content) {
    case 'big':
      return `${file.status} ${name} (${formatBytes(file.sizeBefore)} → ${formatBytes(file.sizeAfter)}; above the diff size cap, compared by hash)`;
    case 'binary':
      return `${file.status} ${name} (binary, ${formatBytes(file.sizeBefore)} → ${formatBytes(file.sizeAfter)})`;
    case 'symlink':
    case 'none':
      return `${file.status} ${name}`;
    case 'text':
      return `${file.status} ${name} (+${file.added} −${file.removed})`;
  }
}

/** The head of the note: the summary line, one line per file, and what was not tracked. */
export function changeSummaryLines(report: ChangeReport): string[] {
  switch (report.kind) {
    case 'not-tracked':
      return [`Changes on disk: not tracked (${report.reason})`];
    case 'unknown':
      return [`Changes on disk: unknown (${report.reason})`];
    case 'tracked': {
      const tail = [
        ...(report.recovered
          ? ['(measured when Tandem reopened after it stopped during this command)']
          : []),
        ...report.notTracked.map((line) => `Not tracked: ${line}`),
      ];
      if (report.files.length === 0) return ['Changes on disk: none.', ...tail];
      const head = `Changes on disk${report.revertable ? ' (can be reverted)' : ''}: ${summarizeChanges(report.files)}`;
      return [head, ...report.files.map(describeFileChange), ...tail];
    }
  }
}

/** The note appended to a command's result for the model (and shown by the CLI). */
export function renderChangeNote(report: ChangeReport): string {
  const diffs =
    report.kind === 'tracked' ? report.files.map((file) => file.diff).filter((d) => d !== '') : [];
  return [...changeSummaryLines(report), ...(diffs.length > 0 ? ['', ...diffs] : [])]
    .join('\n')
    .trimEnd();
}

/** "8.5 MB"; "none" for a side that has no file. */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return 'none';
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
