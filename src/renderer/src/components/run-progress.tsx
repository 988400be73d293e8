// What the run is doing while nothing else moves: the model thinking (and for how long). A
// running command shows its own elapsed time on its card; an approval waits on its card.
import { useSessionStore } from '../stores/session-store';
import { formatElapsed } from './durations';
import { useNow } from './use-now';

export function RunProgress(): React.JSX.Element | null {
  const thinkingSince = useSessionStore((s) => {
    if (s.activeRunId === null) return null;
    const last = s.items.at(-1);
    if (last?.kind === 'assistant' && last.streaming) return null;
    const busy = s.items.some(
      (item) =>
        item.kind === 'tool' &&
        item.runId === s.activeRunId &&
        (item.status === 'running' || item.status === 'waiting'),
    );
    return busy || s.lastEventAt === 0 ? null : s.lastEventAt;
  });
  if (thinkingSince === null) return null;
  return <Thinking since={thinkingSince} />;
}

function Thinking({ since }: { since: number }): React.JSX.Element {
  const now = useNow(1000);
  return (
    <div className="run-progress" role="status" aria-live="polite">
      <span className="thinking-dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      <span>Thinking… {formatElapsed(now - since)}</span>
    </div>
  );
}
