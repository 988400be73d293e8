// The line an undo leaves in the trace (and in the transcript): what was put back, and that the
// agent is told before its next step.
import { memo } from 'react';
import type { TraceItem } from '../stores/trace-model';
import { RuleText } from './rule-text';
import { VisibleText } from './visible-text';

export const RevertedLine = memo(function RevertedLine(props: {
  item: Extract<TraceItem, { kind: 'reverted' }>;
}): React.JSX.Element {
  const { item } = props;
  const files = item.files.map((f) => `${f.action} ${f.path}`).join(', ');
  return (
    <div className="trace-notice info reverted-line">
      <span>
        You reverted <RuleText text={item.what} />
        {files && (
          <>
            : <VisibleText text={files} layout="inline" />
          </>
        )}
        . The agent is told before its next step.
      </span>
    </div>
  );
});
