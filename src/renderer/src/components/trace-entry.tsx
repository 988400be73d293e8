// One trace item, as the list draws it; memoized so an event re-renders only what it changed.
import { memo } from 'react';
import type { ApprovalStack, Stacks } from '../stores/approval-stacks';
import type { TraceItem } from '../stores/trace-model';
import { AssistantText } from './assistant-text';
import { NoticeItem } from './notice-item';
import { RevertedLine } from './reverted-line';
import { RunTask } from './run-task';
import { StackHeader } from './stack-header';
import { ToolCallCard } from './tool-call-card';
import { useAnswerAll } from './use-answer-all';

export const TraceEntry = memo(function TraceEntry(props: {
  item: TraceItem;
  stacks: Stacks;
  revertable: boolean;
}): React.JSX.Element {
  const { item, stacks } = props;
  switch (item.kind) {
    case 'task':
      return (
        <RunTask
          runId={item.runId}
          text={item.text}
          revertable={props.revertable}
          reverted={item.reverted === true}
        />
      );
    case 'assistant':
      return <AssistantText text={item.text} streaming={item.streaming} />;
    case 'tool': {
      const stack = stacks.stackOf.get(item.id);
      return (
        <>
          {stack?.members[0]?.itemId === item.id && <StackHeader stack={stack} />}
          <StackedCard item={item} stack={stack} queue={stacks.queue.get(item.id) ?? null} />
        </>
      );
    }
    case 'notice':
      return <NoticeItem notice={item} />;
    case 'reverted':
      return <RevertedLine item={item} />;
  }
});

function StackedCard(props: {
  item: Extract<TraceItem, { kind: 'tool' }>;
  stack: ApprovalStack | undefined;
  queue: { readonly position: number; readonly count: number } | null;
}): React.JSX.Element {
  const answerAll = useAnswerAll(props.stack);
  return (
    <ToolCallCard
      tool={props.item}
      queue={props.queue}
      {...(props.stack ? { onAll: answerAll } : {})}
    />
  );
}
