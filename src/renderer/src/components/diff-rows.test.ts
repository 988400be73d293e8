import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from './diff-rows';

const EDIT = `Index: a/notes.txt
===================================================================
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
 first
-alpha
+beta
 last
`;

describe('parseUnifiedDiff', () => {
  it('drops the header lines, names the file and numbers old and new lines', () => {
    expect(parseUnifiedDiff(EDIT)).toEqual([
      {
        name: 'notes.txt',
        rows: [
          { kind: 'hunk', text: '', oldLine: null, newLine: null },
          { kind: 'context', text: 'first', oldLine: 1, newLine: 1 },
          { kind: 'del', text: 'alpha', oldLine: 2, newLine: null },
          { kind: 'add', text: 'beta', oldLine: null, newLine: 2 },
          { kind: 'context', text: 'last', oldLine: 3, newLine: 3 },
        ],
      },
    ]);
  });

  it("takes a new file's name from the +++ line and splits several files", () => {
    const two = `===================================================================
--- /dev/null
+++ b/out.txt
@@ -0,0 +1,1 @@
+hi
===================================================================
--- a/gone.txt
+++ /dev/null
@@ -1,1 +0,0 @@
-bye
\\ No newline at end of file
`;
    const files = parseUnifiedDiff(two);
    expect(files.map((f) => f.name)).toEqual(['out.txt', 'gone.txt']);
    expect(files[0]?.rows.at(-1)).toEqual({ kind: 'add', text: 'hi', oldLine: null, newLine: 1 });
    expect(files[1]?.rows.at(-1)).toEqual({
      kind: 'note',
      text: 'No newline at end of file',
      oldLine: null,
      newLine: null,
    });
  });

  it('knows a second file header after a hunk ended, without a separator', () => {
    const files = parseUnifiedDiff(
      '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n',
    );
    expect(files.map((f) => [f.name, f.rows.length])).toEqual([
      ['x', 3],
      ['y', 3],
    ]);
  });

  it('keeps a "---" line inside a hunk as a removed line', () => {
    const rows = parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -1,2 +1,1 @@\n--- old rule\n+++ new\n')[0]
      ?.rows;
    expect(rows?.slice(1).map((r) => [r.kind, r.text])).toEqual([
      ['del', '-- old rule'],
      ['add', '++ new'],
    ]);
  });
});
