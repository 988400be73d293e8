import { useState } from 'react';
import type { TraceItem, ToolStatus } from '../stores/trace-model';

type ToolItem = Extract<TraceItem, { kind: 'tool' }>;

const STATUS_LABELS: Record<ToolStatus, string> = {
  running: 'Running',
  waiting: 'Waiting for you',
  done: 'Done',
  failed: 'Failed',
  refused: 'Not run',
};

export function ToolCallCard({ tool }: { tool: ToolItem }): React.JSX.Element {
  const [open, setOpen] = useState(false);
  const output = tool.result ?? tool.output;

  return (
    <article className={`tool-card status-${tool.status}`}>
      <button
        type="button"
        className="tool-card-head"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        <span className={`effect effect-${tool.effect}`}>{tool.effect}</span>
        <span className="tool-name">{tool.name}</span>
        <span className="tool-args">{summariseArgs(tool.args)}</span>
        <span className="spacer" />
        <span className={`tool-status ${tool.status}`}>{STATUS_LABELS[tool.status]}</span>
        {tool.durationMs !== undefined && (
          <span className="muted">{formatDuration(tool.durationMs)}</span>
        )}
      </button>
      {open && (
        <div className="tool-card-body">
          <pre className="tool-args-full">{JSON.stringify(tool.args, null, 2)}</pre>
          {tool.provenance && <p className="muted">{tool.provenance}</p>}
        </div>
      )}
      {output !== '' && <pre className="tool-output">{output}</pre>}
    </article>
  );
}

function summariseArgs(args: unknown): string {
  if (typeof args === 'string') return args.slice(0, 120);
  if (typeof args !== 'object' || args === null) return String(args);
  const text = Object.entries(args)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
