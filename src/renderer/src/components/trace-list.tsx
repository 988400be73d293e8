// The session's trace. Long traces stay smooth: entries are memoized (an event re-renders only
// the item it changed), off-screen entries skip layout and paint (content-visibility, see
// app.css), and terminals exist only near the viewport. The list follows new output while the
// person is at the bottom, and stays put when they scrolled up to read.
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { useSessionStore } from '../stores/session-store';
import type { TraceItem } from '../stores/trace-model';
import { canRevert } from '../stores/tool-changes';
import { ApprovalCard } from './approval-card';
import { AssistantText } from './assistant-text';
import { RunTask } from './run-task';
import { ToolCallCard } from './tool-call-card';
import { VisibleText } from './visible-text';

/** Within this many pixels of the end counts as "at the bottom". */
const BOTTOM_SLACK = 48;

interface Queue {
  readonly position: number;
  readonly count: number;
}

export function TraceList(): React.JSX.Element {
  const items = useSessionStore((s) => s.items);
  const activeRunId = useSessionStore((s) => s.activeRunId);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const hasItems = items.length > 0;

  const { queues, revertableRuns } = useMemo(() => {
    const pending = items.filter((i) => i.kind === 'approval' && i.answer === null);
    const queues = new Map<string, Queue>(
      pending.map((item, i) => [item.id, { position: i + 1, count: pending.length }]),
    );
    const revertableRuns = new Set<string>();
    for (const item of items)
      if (item.kind === 'tool' && canRevert(item)) revertableRuns.add(item.runId);
    return { queues, revertableRuns };
  }, [items]);

  // New items, and cards growing (terminal rows, markdown), keep the end in view while at the end.
  useLayoutEffect(() => {
    const element = scroller.current;
    const inner = content.current;
    if (!element || !inner) return;
    const follow = (): void => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    };
    follow();
    const resize = new ResizeObserver(follow);
    resize.observe(inner);
    return () => resize.disconnect();
  }, [hasItems]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [items]);

  if (items.length === 0) {
    return (
      <div className="trace empty">
        <p>
          Write a task below. The agent reads freely; you approve every write, command and fetch.
        </p>
      </div>
    );
  }
  return (
    <div
      ref={scroller}
      className="trace"
      aria-live="polite"
      onScroll={(event) => {
        const e = event.currentTarget;
        atBottom.current = e.scrollHeight - e.scrollTop - e.clientHeight < BOTTOM_SLACK;
      }}
    >
      <div ref={content} className="trace-items">
        {items.map((item) => (
          <TraceEntry
            key={item.id}
            item={item}
            queue={queues.get(item.id) ?? null}
            revertable={
              item.kind === 'task' && item.runId !== activeRunId && revertableRuns.has(item.runId)
            }
          />
        ))}
      </div>
    </div>
  );
}

const TraceEntry = memo(function TraceEntry(props: {
  item: TraceItem;
  queue: Queue | null;
  revertable: boolean;
}): React.JSX.Element {
  const { item, queue } = props;
  switch (item.kind) {
    case 'task':
      return <RunTask runId={item.runId} text={item.text} revertable={props.revertable} />;
    case 'assistant':
      return <AssistantText text={item.text} streaming={item.streaming} />;
    case 'tool':
      return <ToolCallCard tool={item} />;
    case 'approval':
      return <ApprovalCard approval={item} active={queue?.position === 1} queue={queue} />;
    case 'notice':
      // Run endings and errors can quote the provider or the model.
      return (
        <div className={`trace-notice ${item.tone}`}>
          <VisibleText text={item.text} layout="lines" />
        </div>
      );
  }
});
