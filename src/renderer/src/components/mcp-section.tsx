// Settings → MCP servers: every server with its state, tools and log, the project's .mcp.json and
// whether it is accepted, and a box to add servers in the familiar `mcpServers` shape.
import { useEffect, useState } from 'react';
import { useMcpStore } from '../stores/mcp-store';
import { ErrorBanner } from './error-banner';
import { McpServerCard } from './mcp-server-card';
import { VisibleText } from './visible-text';
import '../styles/mcp.css';

const EXAMPLE = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]
    }
  }
}`;

export function McpSection({ hasProject }: { hasProject: boolean }): React.JSX.Element {
  const { overview, error, busy, load, addServers, revokeProject, review, dismissError } =
    useMcpStore();
  const [text, setText] = useState('');

  useEffect(() => {
    void load();
  }, [load, hasProject]);

  const project = overview?.project;
  return (
    <section className="settings-card" aria-labelledby="mcp-title">
      <h2 id="mcp-title">MCP servers</h2>
      <p className="muted">
        Tools from Model Context Protocol servers ask before they run, like every other tool. Local
        servers run inside the sandbox where there is one.
      </p>
      {error && <ErrorBanner message={error} onDismiss={dismissError} />}
      {overview === null ? (
        <p className="muted">Loading…</p>
      ) : overview.servers.length === 0 ? (
        <p className="muted">No MCP servers {hasProject ? 'run for this project' : 'yet'}.</p>
      ) : (
        <ul className="mcp-servers" aria-label="MCP servers">
          {overview.servers.map((server) => (
            <McpServerCard key={server.name} server={server} />
          ))}
        </ul>
      )}
      {overview?.problems.map((problem, i) => (
        <p key={i} className="warn-text">
          <VisibleText text={problem} layout="inline" />
        </p>
      ))}
      {project && project.kind !== 'none' && (
        <div className="mcp-project" aria-label="This project's .mcp.json">
          <h3>This project’s .mcp.json</h3>
          {project.kind === 'invalid' ? (
            <p className="warn-text">
              Not used: <VisibleText text={project.reason} layout="inline" />
            </p>
          ) : project.kind === 'pending' ? (
            <p>
              {project.changed ? 'Changed since you accepted it' : 'Not accepted yet'}: its{' '}
              {project.servers.length} server{project.servers.length === 1 ? '' : 's'} do not start.{' '}
              <button type="button" className="button small" onClick={() => review(true)}>
                Review
              </button>
            </p>
          ) : (
            <p>
              Accepted: its servers start with this project.{' '}
              <button
                type="button"
                className="button danger-outline small"
                disabled={busy}
                onClick={() => void revokeProject()}
              >
                Stop using it
              </button>
            </p>
          )}
        </div>
      )}
      <form
        className="mcp-add"
        onSubmit={(event) => {
          event.preventDefault();
          void addServers(text).then((added) => added && setText(''));
        }}
      >
        <label className="field-label" htmlFor="mcp-add-text">
          Add servers{' '}
          <span className="muted">(paste an “mcpServers” JSON; Tandem asks you to confirm)</span>
        </label>
        <textarea
          id="mcp-add-text"
          className="mcp-add-text"
          rows={6}
          spellCheck={false}
          placeholder={EXAMPLE}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="card-actions">
          <button type="submit" className="button primary" disabled={busy || text.trim() === ''}>
            Add servers
          </button>
        </div>
      </form>
    </section>
  );
}
