// The project's .mcp.json, before anything of it runs: each server's exact command line, working
// folder and the names of what it is given, then "Accept and start" (which main confirms once
// more in its own dialog, for exactly this content) or "Not now". Shown when a project with a
// pending file opens, and from Settings.
import { useEffect } from 'react';
import { useMcpStore } from '../stores/mcp-store';
import { ErrorBanner } from './error-banner';
import { VisibleText } from './visible-text';
import '../styles/mcp.css';

export function McpProjectDialog(): React.JSX.Element | null {
  const {
    overview,
    reviewing,
    dismissedHash,
    busy,
    error,
    load,
    acceptProject,
    dismissProject,
    dismissError,
  } = useMcpStore();

  useEffect(() => {
    void load();
  }, [load]);

  const project = overview?.project;
  if (!project || project.kind !== 'pending') return null;
  if (!reviewing && dismissedHash === project.hash) return null;

  return (
    <div className="mcp-dialog-backdrop">
      <div
        className="mcp-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="mcp-dialog-title"
      >
        <h2 id="mcp-dialog-title">
          {project.changed
            ? 'This project’s MCP servers changed'
            : 'This project names MCP servers'}
        </h2>
        <p>
          Its <code>.mcp.json</code> asks Tandem to start{' '}
          {project.servers.length === 1 ? 'this program' : 'these programs'}. A project file can
          name any program: start them only if you trust this project.
        </p>
        <ul className="mcp-proposed" aria-label="Proposed MCP servers">
          {project.servers.map((server) => (
            <li key={server.name}>
              <strong>
                <VisibleText text={server.name} layout="inline" />
              </strong>{' '}
              <span className="muted">{server.transport}</span>
              <pre className="command">
                <VisibleText text={server.commandLine} layout="inline" />
              </pre>
              {server.cwd !== null && (
                <p className="muted">
                  In <VisibleText text={server.cwd} layout="inline" />
                </p>
              )}
              {server.environment.length > 0 && (
                <p className="muted">
                  Environment: <VisibleText text={server.environment.join(' ')} layout="inline" />
                </p>
              )}
              {server.headerNames.length > 0 && (
                <p className="muted">
                  Headers: <VisibleText text={server.headerNames.join(', ')} layout="inline" />
                </p>
              )}
            </li>
          ))}
        </ul>
        {project.problems.map((problem, i) => (
          <p key={i} className="muted">
            <VisibleText text={problem} layout="inline" />
          </p>
        ))}
        <p className="muted">
          Local servers run inside the sandbox where there is one, with the project read-only and no
          network until you allow more for a server. If the file changes, Tandem asks again.
        </p>
        {error && <ErrorBanner message={error} onDismiss={dismissError} />}
        <div className="approval-actions">
          <button
            type="button"
            className="button primary"
            disabled={busy}
            onClick={() => void acceptProject(project.hash)}
          >
            Accept and start
          </button>
          <button
            type="button"
            className="button ghost"
            onClick={() => dismissProject(project.hash)}
          >
            Not now
          </button>
        </div>
      </div>
    </div>
  );
}
