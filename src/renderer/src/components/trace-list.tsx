import { useEffect, useRef } from 'react';
import { useSessionStore } from '../stores/session-store';
import type { TraceItem } from '../stores/trace-model';
import { ApprovalCard } from './approval-card';
import { AssistantText } from './assistant-text';
import { ToolCallCard } from './tool-call-card';

export function TraceList(): React.JSX.Element {
  const items = useSessionStore((s) => s.items);
  const end = useRef<HTMLDivElement>(null);
  const firstPending = items.find((i) => i.kind === 'approval' && i.answer === null)?.id;

  // Follow the stream as it grows.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
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
    <div className="trace" aria-live="polite">
      {items.map((item) => (
        <TraceEntry key={item.id} item={item} active={item.id === firstPending} />
      ))}
      <div ref={end} />
    </div>
  );
}

function TraceEntry({ item, active }: { item: TraceItem; active: boolean }): React.JSX.Element {
  switch (item.kind) {
    case 'task':
      return <div className="trace-task">{item.text}</div>;
    case 'assistant':
      return <AssistantText text={item.text} streaming={item.streaming} />;
    case 'tool':
      return <ToolCallCard tool={item} />;
    case 'approval':
      return <ApprovalCard approval={item} active={active} />;
    case 'notice':
      return <div className={`trace-notice ${item.tone}`}>{item.text}</div>;
  }
}
