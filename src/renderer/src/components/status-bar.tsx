import type { WorkspaceInfo } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import { McpStatusItem } from './mcp-status-item';
import { StatusModeSwitch } from './status-mode-switch';

export function StatusBar({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  const provider = useAppStore((s) => s.provider);
  const sandbox = useAppStore((s) => s.info?.sandbox);
  const usage = useSessionStore((s) => s.usage);
  const running = useSessionStore((s) => s.activeRunId !== null);

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
      <span title={`${usage.promptTokens} in, ${usage.completionTokens} out`}>
        {usage.totalTokens.toLocaleString()} tokens
      </span>
    </div>
  );
}
