// The review step before committing: every file this session changed (by edits or commands),
// each with its combined diff against the session's start, reverted one by one or all at once.
// Paths and diffs are file and model text: shown with escapes.
import { useEffect, useState } from 'react';
import type { ChangedFile } from '../../../shared/api';
import { useChangesStore } from '../stores/changes-store';
import { useSessionStore } from '../stores/session-store';
import { DiffView } from './diff-view';
import { VisibleText } from './visible-text';

export function ChangesPanel(): React.JSX.Element {
  const { files, loading, outcome, busy, refresh, revert, toggle } = useChangesStore();
  const running = useSessionStore((s) => s.activeRunId !== null);
  // Calls that may have changed files, and undo lines: when these change, so may the list.
  const changeMarks = useSessionStore(
    (s) =>
      s.items.filter(
        (item) =>
          (item.kind === 'tool' && item.effect !== 'read' && item.result !== undefined) ||
          item.kind === 'reverted',
      ).length,
  );
  const [confirmAll, setConfirmAll] = useState(false);

  // The list follows the trace: a finished call or a revert may change it.
  useEffect(() => {
    void refresh();
  }, [refresh, running, changeMarks]);

  const revertable = (files ?? []).filter((f) => f.blocked === null);
  return (
    <aside className="changes-panel" aria-label="Changes in this session">
      <header className="panel-head">
        <h2>Changes in this session</h2>
        <span className="spacer" />
        <button type="button" className="button small ghost" onClick={() => toggle(false)}>
          Close
        </button>
      </header>
      {outcome && (
        <p className={outcome.ok ? 'ok-text' : 'warn-text'} aria-live="polite">
          <VisibleText text={outcome.message} layout="lines" />
        </p>
      )}
      {files === null ? (
        <p className="muted">{loading ? 'Loading…' : 'No changes read yet.'}</p>
      ) : files.length === 0 ? (
        <p className="muted">This session has not changed any file (or every change was undone).</p>
      ) : (
        <>
          <div className="changes-summary">
            <span>
              {files.length} file{files.length === 1 ? '' : 's'} changed,{' '}
              <span className="ok-text">+{sum(files, 'added')}</span>{' '}
              <span className="danger-text">−{sum(files, 'removed')}</span>
            </span>
            <span className="spacer" />
            {confirmAll ? (
              <span className="row-actions confirm">
                Put all {revertable.length} back as they were at the session’s start?
                <button
                  type="button"
                  className="button small danger"
                  disabled={busy || running}
                  onClick={() => {
                    setConfirmAll(false);
                    void revert(revertable.map((f) => f.path));
                  }}
                >
                  Revert all
                </button>
                <button
                  type="button"
                  className="button small ghost"
                  onClick={() => setConfirmAll(false)}
                >
                  Cancel
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="button small"
                disabled={busy || running || revertable.length === 0}
                onClick={() => setConfirmAll(true)}
              >
                Revert all…
              </button>
            )}
          </div>
          <ul className="changed-files">
            {files.map((file) => (
              <ChangedFileRow
                key={file.path}
                file={file}
                disabled={busy || running}
                onRevert={() => void revert([file.path])}
              />
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}

function ChangedFileRow(props: {
  file: ChangedFile;
  disabled: boolean;
  onRevert: () => void;
}): React.JSX.Element {
  const { file } = props;
  return (
    <li className="changed-file">
      <header className="changed-file-head">
        <span className={`change-kind ${file.change}`}>{file.change}</span>
        <code className="changed-path">
          <VisibleText text={file.path} layout="inline" />
        </code>
        <span className="muted nowrap">
          +{file.added} −{file.removed}
        </span>
        <span className="spacer" />
        <button
          type="button"
          className="button small"
          disabled={props.disabled || file.blocked !== null}
          title={file.blocked ?? undefined}
          onClick={props.onRevert}
          aria-label={`Revert ${file.path}`}
        >
          Revert
        </button>
      </header>
      {file.blocked && <p className="warn-text">{file.blocked}</p>}
      {file.diff ? (
        <DiffView diff={file.diff} />
      ) : (
        <p className="muted">No text diff (a binary file or too large to show).</p>
      )}
    </li>
  );
}

function sum(files: readonly ChangedFile[], key: 'added' | 'removed'): number {
  return files.reduce((total, file) => total + file[key], 0);
}
