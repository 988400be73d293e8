// The status bar: one small component per item, listed in STATUS_ITEMS, so another item (an MCP
// server count, say) slots in without touching the others. Items left of the spacer describe the
// run and its safety; items right of it its cost.
import type { WorkspaceInfo } from '../../../shared/api';
import { useAppStore } from '../stores/app-store';
import { useSessionStore } from '../stores/session-store';
import { McpStatusItem } from './mcp-status-item';
import { StatusModeSwitch } from './status-mode-switch';
import { ContextFigure, UsageFigure } from './status-usage';

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

/** How full the model's window is, with Compact beside it (it acts on that figure). */
function Context(): React.JSX.Element {
  const context = useSessionStore((s) => s.context);
  const running = useSessionStore((s) => s.activeRunId !== null);
  const compacting = useSessionStore((s) => s.compacting);
  const compact = useSessionStore((s) => s.compact);
  return (
    <span className="status-item">
      <ContextFigure context={context} />
      <button
        type="button"
        className="link-button"
        onClick={() => void compact()}
        disabled={running || compacting}
        title="Summarise the older part of this session, so later requests carry less"
      >
        {compacting ? 'Compacting…' : 'Compact'}
      </button>
    </span>
  );
}

function Tokens(): React.JSX.Element {
  const usage = useSessionStore((s) => s.usage);
  const session = useSessionStore((s) => s.session);
  const last = useSessionStore((s) => s.lastRequest);
  return (
    <span className="status-item">
      <UsageFigure usage={usage} session={session} last={last} />
    </span>
  );
}

/** Left of the spacer, in order. */
const STATUS_ITEMS: readonly StatusItem[] = [RunState, ModelName, Mode, Sandbox, McpStatusItem];
/** Right of the spacer, in order. */
const STATUS_ITEMS_END: readonly StatusItem[] = [Context, Tokens];

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
