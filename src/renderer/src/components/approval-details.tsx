// What an approval card shows about the call: why it asks (including "after reading https://…"
// when untrusted content came in this turn) and exactly what would happen; and a one-line summary
// for a card that was answered. Reasons mark code with backticks: drawn as code, not as marks.
import type { ToolPreview } from '../../../shared/tool-types';
import { visibleText } from '../../../shared/visible-text';
import type { ApprovalState } from '../stores/trace-model';
import { ApprovalPreview } from './approval-preview';
import { RuleText } from './rule-text';

/** One line, with control and bidi characters shown as escapes. */
export function previewSummary(preview: ToolPreview): string {
  return visibleText(summaryOf(preview), { layout: 'inline' });
}

function summaryOf(preview: ToolPreview): string {
  switch (preview.kind) {
    case 'command':
      return preview.command;
    case 'diff':
      return `${preview.path}: ${preview.summary}`;
    case 'url':
      return `${preview.method} ${preview.url}`;
    case 'text':
      return Array.from(preview.text).slice(0, 120).join('');
  }
}

export function ApprovalDetails({ approval }: { approval: ApprovalState }): React.JSX.Element {
  return (
    <>
      {approval.reasons.length > 0 && (
        <ul className="approval-reasons" aria-label="Why it asks">
          {approval.reasons.map((r, i) => (
            <li key={i} className={/after reading|untrusted/i.test(r) ? 'taint' : undefined}>
              <RuleText text={r} />
            </li>
          ))}
        </ul>
      )}
      <ApprovalPreview preview={approval.preview} />
    </>
  );
}
