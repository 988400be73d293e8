// The person's task that started a run, with "Revert this run" once the run changed files.
import { memo } from 'react';
import { useSessionStore } from '../stores/session-store';
import { VisibleText } from './visible-text';

export const RunTask = memo(function RunTask(props: {
  runId: string;
  text: string;
  /** The run is over and at least one of its calls changed files. */
  revertable: boolean;
}): React.JSX.Element {
  const state = useSessionStore((s) => s.reverts[`run:${props.runId}`]);
  const revertRun = useSessionStore((s) => s.revertRun);
  const reverted = state?.status === 'done' && state.outcome.ok;
  return (
    <div className="run-task">
      <div className="trace-task">{props.text}</div>
      {(props.revertable || state) && (
        <div className="card-actions run-actions">
          {state?.status === 'done' && (
            <span aria-live="polite" className={state.outcome.ok ? 'ok-text' : 'warn-text'}>
              {/* Names files a command created: shown with their escapes. */}
              <VisibleText text={state.outcome.message} layout="lines" />
            </span>
          )}
          <button
            type="button"
            className="button ghost"
            disabled={state?.status === 'pending' || reverted}
            onClick={() => void revertRun(props.runId)}
          >
            {reverted ? 'Run reverted' : 'Revert this run'}
          </button>
        </div>
      )}
    </div>
  );
});
