// A notice in the trace: a run's end, or one failure in words with the action that fixes it
// (Open Settings for a wrong URL, key or model; Retry for a busy or unreachable server). Run
// endings and errors can quote the provider or the model: shown with escapes.
import { memo, useState } from 'react';
import type { RunFault } from '../../../shared/events';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import type { TraceItem } from '../stores/trace-model';
import { VisibleText } from './visible-text';

type Notice = Extract<TraceItem, { kind: 'notice' }>;

/** Which actions fix which failure. */
const ACTIONS: Record<RunFault, { readonly settings: boolean; readonly retry: boolean }> = {
  unreachable: { settings: true, retry: true },
  unauthorized: { settings: true, retry: false },
  'not-found': { settings: true, retry: false },
  'rate-limited': { settings: false, retry: true },
  server: { settings: false, retry: true },
  incomplete: { settings: false, retry: true },
  protocol: { settings: true, retry: true },
  internal: { settings: false, retry: true },
};

export const NoticeItem = memo(function NoticeItem({ notice }: { notice: Notice }) {
  const openSettings = useAppStore((s) => s.openSettings);
  const startRun = useSessionStore((s) => s.startRun);
  const running = useSessionStore((s) => s.activeRunId !== null);
  const [retried, setRetried] = useState(false);
  // A retrying notice is replaced by the next one; only the final error offers actions.
  const actions = notice.tone === 'error' && notice.fault ? ACTIONS[notice.fault] : null;
  return (
    <div
      className={`trace-notice ${notice.tone}`}
      role={notice.tone === 'error' ? 'alert' : undefined}
    >
      <span className="notice-text">
        <VisibleText text={notice.text} layout="lines" />
      </span>
      {actions && (
        <span className="notice-actions">
          {actions.settings && (
            <button type="button" className="button small" onClick={openSettings}>
              Open Settings
            </button>
          )}
          {actions.retry && notice.task !== undefined && (
            <button
              type="button"
              className="button small"
              disabled={running || retried}
              onClick={() => {
                setRetried(true);
                void startRun(notice.task as string);
              }}
            >
              Retry
            </button>
          )}
        </span>
      )}
    </div>
  );
});
