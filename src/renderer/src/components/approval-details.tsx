// What an approval card shows about the call: why it asks (including "after reading https://…"
// when untrusted content came in this turn) and exactly what would happen; and a one-line summary
// for a card that was answered.
import type { ToolPreview } from '../../../shared/tool-types';
import type { TraceItem } from '../stores/trace-model';
import { ApprovalPreview } from './approval-preview';

type ApprovalItem = Extract<TraceItem, { kind: 'approval' }>;

export function previewSummary(preview: ToolPreview): string {
  switch (preview.kind) {
    case 'command':
      return preview.command;
    case 'diff':
      return `${preview.path}: ${preview.summary}`;
    case 'url':
      return `${preview.method} ${preview.url}`;
    case 'text':
      return preview.text.slice(0, 120);
  }
}

export function ApprovalDetails({ approval }: { approval: ApprovalItem }): React.JSX.Element {
  return (
    <>
      {approval.reasons.length > 0 && (
        <ul className="approval-reasons" aria-label="Why it asks">
          {approval.reasons.map((r, i) => (
            <li key={i} className={/after reading|untrusted/i.test(r) ? 'taint' : undefined}>
              {r}
            </li>
          ))}
        </ul>
      )}
      <ApprovalPreview preview={approval.preview} />
    </>
  );
}
