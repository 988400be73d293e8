// The status bar's MCP item: how many servers are ready, starting or failed (with the reasons in
// its tooltip); a click opens Settings, where each server's state and log are.
import { useEffect } from 'react';
import { visibleText } from '../../../shared/visible-text';
import { useAppStore } from '../stores/app-store';
import { useMcpStore } from '../stores/mcp-store';
import { statusLabel } from './mcp-server-card';

export function McpStatusItem(): React.JSX.Element | null {
  const overview = useMcpStore((s) => s.overview);
  const load = useMcpStore((s) => s.load);
  const openSettings = useAppStore((s) => s.openSettings);

  useEffect(() => {
    void load();
  }, [load]);

  const servers = overview?.servers ?? [];
  if (servers.length === 0) return null;
  const count = (state: string): number => servers.filter((s) => s.status.state === state).length;
  const failed = count('failed');
  const starting = count('starting');
  const parts = [`${count('ready')}/${servers.length} ready`];
  if (starting > 0) parts.push(`${starting} starting`);
  if (failed > 0) parts.push(`${failed} failed`);
  const title = servers
    .map((s) => {
      const why = s.status.state === 'failed' ? `: ${s.status.reason}` : '';
      const sandbox = s.transport === 'stdio' && !s.sandbox.sandboxed ? ' (not sandboxed)' : '';
      // A tooltip is plain text: hidden characters are written as escapes here, as VisibleText does.
      return visibleText(`${s.name}: ${statusLabel(s.status)}${why}${sandbox}`, {
        layout: 'inline',
      });
    })
    .join('\n');
  return (
    <button
      type="button"
      className={`status-item mcp-status-item${failed > 0 ? ' warn-text' : ''}`}
      title={title}
      aria-label={`MCP servers: ${parts.join(', ')}`}
      onClick={openSettings}
    >
      MCP: {parts.join(' · ')}
    </button>
  );
}
