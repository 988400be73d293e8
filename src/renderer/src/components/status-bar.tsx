import type { WorkspaceInfo } from '../../../shared/api';
import type { Usage, UsageTotals } from '../../../shared/tool-types';
import { describeTotals } from '../../../shared/usage-text';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import { StatusModeSwitch } from './status-mode-switch';

export function StatusBar({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  const provider = useAppStore((s) => s.provider);
  const sandbox = useAppStore((s) => s.info?.sandbox);
  const usage = useSessionStore((s) => s.usage);
  const session = useSessionStore((s) => s.session);
  const last = useSessionStore((s) => s.lastRequest);
  const running = useSessionStore((s) => s.activeRunId !== null);
  const compacting = useSessionStore((s) => s.compacting);
  const compact = useSessionStore((s) => s.compact);

  return (
    <div className="status-bar" role="status">
      <span className={`dot ${running ? 'busy' : 'idle'}`} aria-hidden="true" />
      <span>{running ? 'Running' : 'Idle'}</span>
      <span className="sep" />
      <span title={provider?.baseUrl}>Model: {provider?.model || 'not set'}</span>
      <span className="sep" />
      <StatusModeSwitch workspace={workspace} />
      <span className="sep" />
      <span title={sandbox?.description} className={sandbox?.available ? '' : 'warn-text'}>
        {sandbox?.available ? `Sandbox: ${sandbox.kind}` : 'Commands are not sandboxed'}
      </span>
      <span className="spacer" />
      <UsageFigure usage={usage} session={session} last={last} />
      <button
        type="button"
        className="link-button"
        onClick={() => void compact()}
        disabled={running || compacting}
        title="Summarise the older part of this session, so later requests carry less"
      >
        {compacting ? 'Compacting…' : 'Compact'}
      </button>
    </div>
  );
}

/** The session's tokens (cached ones said apart) and cost; the latest request in the tooltip. */
function UsageFigure({
  usage,
  session,
  last,
}: {
  usage: Usage;
  session: UsageTotals | null;
  last: Usage | null;
}): React.JSX.Element {
  if (!session) {
    return (
      <span title={`${usage.promptTokens} in, ${usage.completionTokens} out`}>
        {usage.totalTokens.toLocaleString()} tokens
      </span>
    );
  }
  const total = session.promptTokens + session.completionTokens;
  const lastLine = last
    ? `\nLatest request: ${last.promptTokens.toLocaleString()} in${last.cachedTokens ? ` (${last.cachedTokens.toLocaleString()} cached)` : ''}, ${last.completionTokens.toLocaleString()} out`
    : '';
  return (
    <span title={`This session: ${describeTotals(session)}${lastLine}`}>
      {total.toLocaleString()} tokens
      {session.cachedTokens > 0 ? ` (${session.cachedTokens.toLocaleString()} cached)` : ''}
      {session.costUsd !== undefined ? ` · $${session.costUsd.toFixed(2)}` : ''}
    </span>
  );
}
