// One MCP server in Settings: its state (with the reason when it failed), the exact command line,
// how it is confined (or plainly that it is not), the person's choices, its tools with effects,
// and the tail of its stderr. Everything the server or its config controls is shown as text.
import type { McpServerChoices, McpServerInfo, McpServerStatus } from '../../../shared/mcp-types';
import { useMcpStore } from '../stores/mcp-store';
import { visibleText } from '../../../shared/visible-text';
import { VisibleText } from './visible-text';

export function statusLabel(status: McpServerStatus): string {
  switch (status.state) {
    case 'starting':
      return status.attempt > 1 ? `Starting (attempt ${status.attempt})` : 'Starting';
    case 'ready':
      return 'Ready';
    case 'failed':
      return status.retryAt !== null ? 'Failed, retrying' : 'Failed';
    case 'stopped':
      return 'Not running';
  }
}

export function McpServerCard({ server }: { server: McpServerInfo }): React.JSX.Element {
  const { setChoices, restart, removeServer, allowServer, busy } = useMcpStore();
  const editable = server.source !== 'cli';
  const change = (patch: Partial<McpServerChoices>): void =>
    void setChoices(server, { ...server.choices, ...patch });
  const { status } = server;

  return (
    <li
      className="mcp-server"
      aria-label={`MCP server ${visibleText(server.name, { layout: 'inline' })}`}
    >
      <div className="mcp-server-head">
        <strong className="mcp-server-name">
          <VisibleText text={server.name} layout="inline" />
        </strong>
        <span className="muted">
          {server.source === 'project'
            ? 'from .mcp.json'
            : server.source === 'app'
              ? 'app'
              : 'command line'}{' '}
          · {server.transport}
        </span>
        <span className="spacer" />
        <span className={`mcp-state mcp-state-${status.state}`} role="status">
          {statusLabel(status)}
        </span>
      </div>
      {status.state === 'failed' && (
        <p className="warn-text mcp-reason">
          <VisibleText text={status.reason} layout="inline" />
        </p>
      )}
      <pre className="command mcp-command">
        <VisibleText text={server.commandLine} layout="inline" />
      </pre>
      <p className={server.sandbox.sandboxed ? 'sandbox-line' : 'sandbox-line warn-text'}>
        <VisibleText text={server.sandbox.description} layout="inline" />
      </p>
      {(server.envNames.length > 0 || server.headerNames.length > 0) && (
        <p className="muted">
          {server.envNames.length > 0 && (
            <>
              Environment: <VisibleText text={server.envNames.join(', ')} layout="inline" />{' '}
            </>
          )}
          {server.headerNames.length > 0 && (
            <>
              Headers: <VisibleText text={server.headerNames.join(', ')} layout="inline" />
            </>
          )}
        </p>
      )}
      <div className="mcp-choices">
        <label>
          <input
            type="checkbox"
            checked={server.choices.trusted}
            disabled={!editable || busy}
            onChange={(e) => change({ trusted: e.target.checked })}
          />{' '}
          Trusted: its read-only tools run without asking
        </label>
        {server.transport === 'stdio' && (
          <>
            <label>
              <input
                type="checkbox"
                checked={server.choices.projectAccess === 'read-write'}
                disabled={!editable || busy}
                onChange={(e) =>
                  change({ projectAccess: e.target.checked ? 'read-write' : 'read-only' })
                }
              />{' '}
              May change files in the project
            </label>
            <label>
              <input
                type="checkbox"
                checked={server.choices.network}
                disabled={!editable || busy}
                onChange={(e) => change({ network: e.target.checked })}
              />{' '}
              May reach the network
            </label>
          </>
        )}
      </div>
      {server.tools.length > 0 && (
        <details className="mcp-tools">
          <summary>
            {server.tools.length} tool{server.tools.length === 1 ? '' : 's'}
          </summary>
          <ul aria-label={`Tools of ${visibleText(server.name, { layout: 'inline' })}`}>
            {server.tools.map((tool) => (
              <li key={tool.name}>
                <span className={`effect effect-${tool.effect}`}>{tool.effect}</span>{' '}
                <code>
                  <VisibleText text={tool.name} layout="inline" />
                </code>{' '}
                <span className="muted">
                  <VisibleText text={tool.annotations} layout="inline" />
                  {tool.effect === 'read' && !server.choices.trusted ? ' · asks: not trusted' : ''}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {server.problems.map((problem, i) => (
        <p key={i} className="warn-text">
          <VisibleText text={problem} layout="inline" />
        </p>
      ))}
      {server.stderrTail !== '' && (
        <details className="mcp-log">
          <summary>Log (stderr)</summary>
          <pre className="tool-output">
            <VisibleText text={server.stderrTail} layout="lines" dropColours />
          </pre>
        </details>
      )}
      <div className="card-actions">
        {status.state !== 'stopped' && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            onClick={() => void restart(server.name)}
          >
            Restart
          </button>
        )}
        <button
          type="button"
          className="button small"
          disabled={busy || status.state === 'stopped'}
          onClick={() => void allowServer(server.name, 'session')}
        >
          Allow every tool for this session
        </button>
        <button
          type="button"
          className="button small"
          disabled={busy || status.state === 'stopped'}
          onClick={() => void allowServer(server.name, 'always')}
        >
          Always allow every tool here
        </button>
        {server.source === 'app' && (
          <button
            type="button"
            className="button danger-outline small"
            disabled={busy}
            onClick={() => void removeServer(server.name)}
          >
            Remove
          </button>
        )}
      </div>
    </li>
  );
}
