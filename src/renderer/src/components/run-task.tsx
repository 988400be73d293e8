// The person's task that started a run, with "Revert this run" once the run changed files. A
// whole run is undone only after the person saw which files it puts back (issue 13 item 6).
import { memo, useState } from 'react';
import { errorMessage } from '../error-message';
import { useSessionStore } from '../stores/session-store';
import { VisibleText } from './visible-text';

type Confirm =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'asking'; readonly files: readonly string[] }
  | { readonly kind: 'failed'; readonly message: string };

export const RunTask = memo(function RunTask(props: {
  runId: string;
  text: string;
  /** The run is over and at least one of its calls changed files. */
  revertable: boolean;
  /** The run was undone (seen in the transcript). */
  reverted: boolean;
}): React.JSX.Element {
  const state = useSessionStore((s) => s.reverts[`run:${props.runId}`]);
  const revertRun = useSessionStore((s) => s.revertRun);
  const [confirm, setConfirm] = useState<Confirm>({ kind: 'idle' });
  const reverted = props.reverted || (state?.status === 'done' && state.outcome.ok);

  async function ask(): Promise<void> {
    setConfirm({ kind: 'loading' });
    try {
      const files = await window.tandem.previewRevertRun(props.runId);
      setConfirm({ kind: 'asking', files });
    } catch (error) {
      setConfirm({ kind: 'failed', message: errorMessage(error) });
    }
  }

  return (
    <div className="run-task">
      <div className="trace-task">{props.text}</div>
      {(props.revertable || state || props.reverted) && (
        <div className="card-actions run-actions">
          {state?.status === 'done' && (
            <span aria-live="polite" className={state.outcome.ok ? 'ok-text' : 'warn-text'}>
              {/* Names files a command created: shown with their escapes. */}
              <VisibleText text={state.outcome.message} layout="lines" />
            </span>
          )}
          {confirm.kind === 'failed' && <span className="warn-text">{confirm.message}</span>}
          {confirm.kind !== 'asking' && (
            <button
              type="button"
              className="button ghost"
              disabled={state?.status === 'pending' || reverted || confirm.kind === 'loading'}
              onClick={() => void ask()}
            >
              {reverted ? 'Run reverted' : 'Revert this run…'}
            </button>
          )}
        </div>
      )}
      {confirm.kind === 'asking' && (
        <div className="revert-confirm" role="group" aria-label="Revert this run: files">
          {confirm.files.length === 0 ? (
            <p>Nothing to revert: this run’s changes were already undone.</p>
          ) : (
            <>
              <p>
                Put{' '}
                {confirm.files.length === 1 ? 'this file' : `these ${confirm.files.length} files`}{' '}
                back as they were before the run? The agent is told.
              </p>
              <ul className="revert-files">
                {confirm.files.map((file) => (
                  <li key={file}>
                    <code>
                      <VisibleText text={file} layout="inline" />
                    </code>
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="approval-actions">
            {confirm.files.length > 0 && (
              <button
                type="button"
                className="button danger"
                onClick={() => {
                  setConfirm({ kind: 'idle' });
                  void revertRun(props.runId);
                }}
              >
                Revert {confirm.files.length === 1 ? '1 file' : `${confirm.files.length} files`}
              </button>
            )}
            <button
              type="button"
              className="button ghost"
              onClick={() => setConfirm({ kind: 'idle' })}
            >
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
});
