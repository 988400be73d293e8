// Tokens in view: how much of the model's context the conversation filled at its last request
// (from the provider's usage report), and what the session used in all.
import { contextWindowOf } from '../../../shared/model-context';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';

export function ContextUsage(): React.JSX.Element {
  const usage = useSessionStore((s) => s.usage);
  const last = useSessionStore((s) => s.lastUsage);
  const model = useAppStore((s) => s.provider?.model ?? '');
  const window = contextWindowOf(model);
  const filled = last ? last.promptTokens + last.completionTokens : null;
  const share = filled !== null && window ? Math.min(100, (filled / window) * 100) : null;
  return (
    <>
      {filled !== null && (
        <span
          className={`status-item context${share !== null && share > 80 ? ' warn-text' : ''}`}
          title="Tokens the conversation filled at the model's last request"
        >
          Context {compact(filled)}
          {window ? ` of ${compact(window)}` : ''}
          {share !== null && (
            <span className="context-meter" aria-hidden="true">
              <span style={{ width: `${share}%` }} />
            </span>
          )}
        </span>
      )}
      <span
        className="status-item"
        title={`This session: ${usage.promptTokens.toLocaleString()} in, ${usage.completionTokens.toLocaleString()} out`}
      >
        {usage.totalTokens.toLocaleString()} tokens used
      </span>
    </>
  );
}

function compact(n: number): string {
  if (n < 10_000) return n.toLocaleString();
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 2)}M`;
}
