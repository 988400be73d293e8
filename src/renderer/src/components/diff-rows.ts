// A unified diff (jsdiff's or git's) turned into what a diff card draws: per file its name and
// rows with old and new line numbers. The raw header lines (`Index:`, `===`, `---`, `+++`) are
// not rows: the file name is taken from them. Pure, so it is tested under Node.

export type DiffRowKind = 'add' | 'del' | 'context' | 'hunk' | 'note';

export interface DiffRow {
  readonly kind: DiffRowKind;
  readonly text: string;
  readonly oldLine: number | null;
  readonly newLine: number | null;
}

export interface DiffFile {
  /** The file's path without `a/` or `b/`; null when the diff names none. */
  readonly name: string | null;
  readonly rows: readonly DiffRow[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

export function parseUnifiedDiff(diff: string): DiffFile[] {
  const files: { name: string | null; rows: DiffRow[] }[] = [];
  let file: { name: string | null; rows: DiffRow[] } | null = null;
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  // Lines the hunk header promised, so a header after the hunk is known as a header.
  let oldLeft = 0;
  let newLeft = 0;
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const start = (): { name: string | null; rows: DiffRow[] } => {
    const made = { name: null, rows: [] };
    files.push(made);
    inHunk = false;
    return made;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('Index: ') || /^={10,}$/.test(line) || line.startsWith('diff --git ')) {
      if (!file || file.rows.length > 0 || file.name !== null) file = start();
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') && !inHunk) {
      file ??= start();
      if (file.rows.length > 0) file = start();
      file.name = pathOf(lines[i + 1] as string) ?? pathOf(line);
      i += 1;
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      file ??= start();
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[3]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      inHunk = oldLeft + newLeft > 0;
      file.rows.push({ kind: 'hunk', text: (hunk[5] ?? '').trim(), oldLine: null, newLine: null });
      continue;
    }
    file ??= start();
    if (line.startsWith('\\')) {
      // "\ No newline at end of file": about the line before, inside or just after a hunk.
      file.rows.push({ kind: 'note', text: line.slice(1).trim(), oldLine: null, newLine: null });
      continue;
    }
    if (!inHunk) {
      // Text before any hunk (a binary note, a summary): shown as it is.
      file.rows.push({ kind: 'note', text: line, oldLine: null, newLine: null });
      continue;
    }
    if (line.startsWith('+')) {
      file.rows.push({ kind: 'add', text: line.slice(1), oldLine: null, newLine: newLine++ });
      newLeft -= 1;
    } else if (line.startsWith('-')) {
      file.rows.push({ kind: 'del', text: line.slice(1), oldLine: oldLine++, newLine: null });
      oldLeft -= 1;
    } else {
      const text = line.startsWith(' ') ? line.slice(1) : line;
      file.rows.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ });
      oldLeft -= 1;
      newLeft -= 1;
    }
    if (oldLeft <= 0 && newLeft <= 0) inHunk = false;
  }
  return files.filter((f) => f.rows.length > 0 || f.name !== null);
}

/** `+++ b/src/a.ts\t…` → `src/a.ts`; `/dev/null` → null. */
function pathOf(header: string): string | null {
  const raw = header.slice(4).split('\t')[0]?.trim() ?? '';
  if (raw === '' || raw === '/dev/null') return null;
  return raw.replace(/^[ab]\//, '');
}
