// The open folder's sessions, newest first: title, when, how the last run ended. Open one to see
// its whole trace and continue it; rename or delete it; start a new one. Switching waits until
// the running session's run is over.
import { useEffect, useRef, useState } from 'react';
import type { SessionStatus, SessionSummary } from '../../../shared/api';
import { SESSION_TITLE_MAX } from '../../../shared/api';
import { useSessionStore } from '../stores/session-store';
import { useSessionsStore } from '../stores/sessions-store';
import { formatWhen } from './durations';
import { ErrorBanner } from './error-banner';
import { useNow } from './use-now';
import { VisibleText } from './visible-text';

const STATUS_LABELS: Record<SessionStatus, string> = {
  new: 'New',
  running: 'Running',
  done: 'Done',
  stopped: 'Stopped',
  failed: 'Failed',
  'step-limit': 'Step limit',
  interrupted: 'Interrupted',
};

export function SessionsSidebar(): React.JSX.Element {
  const { sessions, error, opening, refresh, open, startNew, dismissError } = useSessionsStore();
  const running = useSessionStore((s) => s.activeRunId !== null);
  const shown = useSessionStore((s) => s.sessionId);
  const now = useNow(60_000);

  // A run's start and end change the list (a new session, a status).
  useEffect(() => {
    void refresh();
  }, [refresh, running, shown]);

  return (
    <nav className="sessions-sidebar" aria-label="Sessions">
      <header className="sidebar-head">
        <h2>Sessions</h2>
        <button
          type="button"
          className="button small"
          disabled={running}
          title={running ? 'Stop the run first' : undefined}
          onClick={() => void startNew()}
        >
          New session
        </button>
      </header>
      {error && <ErrorBanner message={error} onDismiss={dismissError} />}
      {sessions === null ? (
        <p className="muted sidebar-note">Loading…</p>
      ) : sessions.length === 0 ? (
        <p className="muted sidebar-note">No sessions yet in this folder.</p>
      ) : (
        <ul className="session-list">
          {sessions.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              shown={session.id === shown}
              locked={running || opening !== null}
              now={now}
              onOpen={() => void open(session.id)}
            />
          ))}
        </ul>
      )}
    </nav>
  );
}

function SessionRow(props: {
  session: SessionSummary;
  shown: boolean;
  locked: boolean;
  now: number;
  onOpen: () => void;
}): React.JSX.Element {
  const { session, shown, locked } = props;
  const rename = useSessionsStore((s) => s.rename);
  const remove = useSessionsStore((s) => s.remove);
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [title, setTitle] = useState(session.title);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (mode === 'rename') field.current?.select();
  }, [mode]);

  if (mode === 'rename') {
    return (
      <li className="session-row editing">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (title.trim() === '') return;
            void rename(session.id, title.trim()).then((ok) => ok && setMode('view'));
          }}
        >
          <input
            ref={field}
            aria-label="Session title"
            value={title}
            maxLength={SESSION_TITLE_MAX}
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setMode('view');
            }}
          />
          <div className="row-actions">
            <button type="submit" className="button small primary" disabled={title.trim() === ''}>
              Save
            </button>
            <button type="button" className="button small ghost" onClick={() => setMode('view')}>
              Cancel
            </button>
          </div>
        </form>
      </li>
    );
  }

  return (
    <li className={`session-row${shown ? ' shown' : ''}`}>
      <button
        type="button"
        className="session-open"
        onClick={props.onOpen}
        disabled={locked && !shown}
        aria-current={shown ? 'true' : undefined}
        title={session.title}
      >
        <span className="session-title-text">
          <VisibleText text={session.title} layout="inline" />
        </span>
        <span className="session-meta">
          <span className={`session-status status-${session.status}`}>
            {STATUS_LABELS[session.status]}
          </span>
          <span className="muted">{formatWhen(session.updatedAt, props.now)}</span>
        </span>
      </button>
      {mode === 'delete' ? (
        <div className="row-actions confirm">
          <span>Delete this session’s record?</span>
          <button
            type="button"
            className="button small danger"
            onClick={() => void remove(session.id)}
          >
            Delete
          </button>
          <button type="button" className="button small ghost" onClick={() => setMode('view')}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="row-actions">
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setTitle(session.title);
              setMode('rename');
            }}
            aria-label={`Rename ${session.title}`}
          >
            Rename
          </button>
          <button
            type="button"
            className="link-button danger-text"
            disabled={session.status === 'running'}
            onClick={() => setMode('delete')}
            aria-label={`Delete ${session.title}`}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
