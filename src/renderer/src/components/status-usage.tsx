// The status bar's token figures: how full the model's window is, the session's tokens and cost,
// and the latest request in the tooltip.
import type { UsageTotals, Usage } from '../../../shared/tool-types';
import {
  contextPercent,
  describeContextSource,
  describeContextUse,
  describeRequest,
  describeTotals,
} from '../../../shared/usage-text';
import type { ContextUse, LastRequest } from '../stores/trace-model';

/** Past this share of the window the figure is shown as a warning: compaction is near. */
const WARN_PERCENT = 80;

export function ContextFigure({ context }: { context: ContextUse | null }): React.JSX.Element {
  if (!context) return <span className="context-use">Context: —</span>;
  const percent = contextPercent(context);
  return (
    <span
      className={`context-use${percent >= WARN_PERCENT ? ' warn-text' : ''}`}
      title={describeContextSource(context)}
      aria-label={`Context: ${describeContextUse(context)}`}
    >
      {/* In a narrow bar the window's size goes (it stays in the label and the tooltip). */}
      Context: {context.tokens.toLocaleString('en-US')}
      <span className="wide-only"> of {context.windowTokens.toLocaleString('en-US')} tokens</span>
      {` (${percent} %)`}
    </span>
  );
}

/** The session's tokens (cached ones said apart) and cost; the latest request in the tooltip. */
export function UsageFigure({
  usage,
  session,
  last,
}: {
  usage: Usage;
  session: UsageTotals | null;
  last: LastRequest | null;
}): React.JSX.Element {
  const lastLine = last ? `\nLatest request: ${describeRequest(last.usage, last.costUsd)}` : '';
  if (!session) {
    return (
      <span title={`${usage.promptTokens} in, ${usage.completionTokens} out${lastLine}`}>
        {usage.totalTokens.toLocaleString('en-US')} tokens
      </span>
    );
  }
  const total = session.promptTokens + session.completionTokens;
  return (
    <span className="session-usage" title={`This session: ${describeTotals(session)}${lastLine}`}>
      {total.toLocaleString('en-US')} tokens
      {session.cachedTokens > 0 ? ` (${session.cachedTokens.toLocaleString('en-US')} cached)` : ''}
      {session.costUsd !== undefined ? ` · $${session.costUsd.toFixed(2)}` : ''}
    </span>
  );
}
