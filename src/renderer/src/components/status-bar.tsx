import type { WorkspaceInfo } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import { McpStatusItem } from './mcp-status-item';
import { StatusModeSwitch } from './status-mode-switch';
import { ContextFigure, UsageFigure } from './status-usage';

export function StatusBar({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  const provider = useAppStore((s) => s.provider);
  const sandbox = useAppStore((s) => s.info?.sandbox);
  const usage = useSessionStore((s) => s.usage);
  const session = useSessionStore((s) => s.session);
  const last = useSessionStore((s) => s.lastRequest);
  const context = useSessionStore((s) => s.context);
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
      <McpStatusItem />
      <span className="spacer" />
      <ContextFigure context={context} />
      <span className="sep" />
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
