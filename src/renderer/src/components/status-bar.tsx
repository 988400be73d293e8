// The status bar: one small component per item, listed in STATUS_ITEMS, so another item (an MCP
// server count, say) slots in without touching the others. Items left of the spacer describe the
// run and its safety; items right of it its cost.
import type { WorkspaceInfo } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import { ContextUsage } from './context-usage';
import { McpStatusItem } from './mcp-status-item';
import { StatusModeSwitch } from './status-mode-switch';

export interface StatusItemProps {
  readonly workspace: WorkspaceInfo;
}

type StatusItem = (props: StatusItemProps) => React.JSX.Element | null;

function RunState(): React.JSX.Element {
  const running = useSessionStore((s) => s.activeRunId !== null);
  return (
    <span className="status-item">
      <span className={`dot ${running ? 'busy' : 'idle'}`} aria-hidden="true" />
      {running ? 'Running' : 'Idle'}
    </span>
  );
}

function ModelName(): React.JSX.Element {
  const provider = useAppStore((s) => s.provider);
  return (
    <span className="status-item" title={provider?.baseUrl}>
      Model: {provider?.model || 'not set'}
    </span>
  );
}

function Mode({ workspace }: StatusItemProps): React.JSX.Element {
  return (
    <span className="status-item">
      <StatusModeSwitch workspace={workspace} />
    </span>
  );
}

function Sandbox(): React.JSX.Element {
  const sandbox = useAppStore((s) => s.info?.sandbox);
  return (
    <span
      title={sandbox?.description}
      className={`status-item${sandbox?.available ? '' : ' warn-text'}`}
    >
      {sandbox?.available ? `Sandbox: ${sandbox.kind}` : 'Commands are not sandboxed'}
    </span>
  );
}

/** Left of the spacer, in order. */
export const STATUS_ITEMS: readonly StatusItem[] = [RunState, ModelName, Mode, Sandbox, McpStatusItem];
/** Right of the spacer, in order. */
export const STATUS_ITEMS_END: readonly StatusItem[] = [ContextUsage];

export function StatusBar({ workspace }: { workspace: WorkspaceInfo }): React.JSX.Element {
  return (
    <div className="status-bar" role="status">
      {STATUS_ITEMS.map((Item, i) => (
        <Item key={i} workspace={workspace} />
      ))}
      <span className="spacer" />
      {STATUS_ITEMS_END.map((Item, i) => (
        <Item key={i} workspace={workspace} />
      ))}
    </div>
  );
}
