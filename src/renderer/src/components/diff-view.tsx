// A diff as a card draws it: per file its name, then rows with old and new line numbers, added
// and removed lines marked. The lines are a file's or the model's text: shown with escapes.
import { memo, useMemo } from 'react';
import { parseUnifiedDiff, type DiffFile, type DiffRow } from './diff-rows';
import { VisibleText } from './visible-text';

/** Rows drawn before "show the rest": a 20,000-line diff must not stall the window. */
const MAX_ROWS = 2000;

export const DiffView = memo(function DiffView(props: {
  diff: string;
  /** Shown when the diff itself names no file (a preview knows its path). */
  fallbackName?: string;
}): React.JSX.Element {
  const files = useMemo(() => withinBudget(parseUnifiedDiff(props.diff)), [props.diff]);
  return (
    <div className="diff-view">
      {files.map(({ file, rows }, i) => {
        const cut = file.rows.length - rows.length;
        const name = file.name ?? props.fallbackName;
        return (
          <section key={i} className="diff-file">
            {name && (
              <header className="diff-file-name">
                <VisibleText text={name} layout="inline" />
              </header>
            )}
            <table className="diff">
              <tbody>
                {rows.map((row, k) => (
                  <Row key={k} row={row} />
                ))}
              </tbody>
            </table>
            {cut > 0 && (
              <p className="muted diff-cut">… {cut.toLocaleString()} more lines not shown</p>
            )}
          </section>
        );
      })}
    </div>
  );
});

/** Each file with the rows drawn for it, at most MAX_ROWS over all files. */
function withinBudget(
  files: readonly DiffFile[],
): { readonly file: DiffFile; readonly rows: readonly DiffRow[] }[] {
  let budget = MAX_ROWS;
  return files.map((file) => {
    const rows = file.rows.slice(0, Math.max(0, budget));
    budget -= rows.length;
    return { file, rows };
  });
}

const MARKS: Record<DiffRow['kind'], string> = {
  add: '+',
  del: '−',
  context: ' ',
  hunk: '',
  note: '',
};

function Row({ row }: { row: DiffRow }): React.JSX.Element {
  if (row.kind === 'hunk') {
    return (
      <tr className="diff-hunk">
        <td className="ln" />
        <td className="ln" />
        <td className="code">{row.text ? <VisibleText text={row.text} layout="inline" /> : '⋯'}</td>
      </tr>
    );
  }
  return (
    <tr className={`diff-${row.kind}`}>
      <td className="ln">{row.oldLine ?? ''}</td>
      <td className="ln">{row.newLine ?? ''}</td>
      <td className="code">
        <span className="mark" aria-hidden="true">
          {MARKS[row.kind]}
        </span>
        <VisibleText text={row.text} layout="lines" />
      </td>
    </tr>
  );
}
