// A tool call in the trace. Its name, arguments, output and change summary are text the model, a
// file or a program controls: all of it is shown through VisibleText (escapes, never raw
// control or bidi characters); the live terminal of a shell call is xterm.js's job.
import { memo, useState } from 'react';
import { safeJsonStringify } from '../../../shared/safe-json';
import type { SecretMark } from '../../../shared/tool-types';
import { visibleText } from '../../../shared/visible-text';
import { useSessionStore } from '../stores/session-store';
import type { TraceItem, ToolStatus } from '../stores/trace-model';
import { canRevert, commandText } from '../stores/tool-changes';
import { changeSummaryLines, type ChangeReport } from '../../../shared/change-report';
import { diffLineClass } from './approval-preview';
import { TerminalSlot } from './terminal-slot';
import { ToolImages } from './tool-images';
import { VisibleText } from './visible-text';

type ToolItem = Extract<TraceItem, { kind: 'tool' }>;

const STATUS_LABELS: Record<ToolStatus, string> = {
  running: 'Running',
  waiting: 'Waiting for you',
  done: 'Done',
  failed: 'Failed',
  refused: 'Not run',
};

/** One tool call; memoized so a long trace re-renders only the card whose item changed. */
export const ToolCallCard = memo(function ToolCallCard({
  tool,
}: {
  tool: ToolItem;
}): React.JSX.Element {
  const [open, setOpen] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const isShell = tool.name === 'shell';
  // Secrets are masked in what the agent was given; the person may show them here, locally.
  const result = revealed && tool.unmasked !== undefined ? tool.unmasked : tool.result;
  const showTerminal =
    isShell && tool.status !== 'refused' && (tool.status === 'running' || tool.outputTotal > 0);
  const plain = isShell ? commandText(tool, result) : (result ?? tool.output);

  return (
    <article
      className={`tool-card status-${tool.status}`}
      aria-label={`Tool call ${visibleText(tool.name, { layout: 'inline' })}`}
    >
      <button
        type="button"
        className="tool-card-head"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
      >
        <span className={`effect effect-${tool.effect}`}>{tool.effect}</span>
        <span className="tool-name">
          <VisibleText text={tool.name} layout="inline" />
        </span>
        <span className="tool-args">{summariseArgs(tool.args)}</span>
        <span className="spacer" />
        <span className={`tool-status ${tool.status}`}>{STATUS_LABELS[tool.status]}</span>
        {tool.durationMs !== undefined && (
          <span className="muted">{formatDuration(tool.durationMs)}</span>
        )}
      </button>
      {tool.secrets && tool.secrets.length > 0 && (
        <SecretNotice
          secrets={tool.secrets}
          revealed={revealed}
          canReveal={tool.unmasked !== undefined}
          onToggle={() => setRevealed(!revealed)}
        />
      )}
      {tool.provenance && (
        <p className="provenance">
          Ran because: <VisibleText text={tool.provenance} layout="inline" />
        </p>
      )}
      {open && (
        <div className="tool-card-body">
          <pre className="tool-args-full">
            <VisibleText text={safeJsonStringify(tool.args, { space: 2 })} layout="lines" />
          </pre>
          {isShell && plain !== '' && (
            <>
              <p className="muted">What the agent was given:</p>
              <pre className="tool-args-full">
                <VisibleText text={plain} layout="lines" dropColours />
              </pre>
            </>
          )}
        </div>
      )}
      {showTerminal ? (
        <TerminalSlot
          callId={tool.id}
          label={summariseArgs(tool.args)}
          output={tool.output}
          outputTotal={tool.outputTotal}
          running={tool.status === 'running'}
        />
      ) : (
        plain !== '' && (
          <pre className="tool-output">
            <VisibleText text={plain} layout="lines" dropColours />
          </pre>
        )
      )}
      <ToolImages images={tool.images} />
      {tool.changes && <ChangeSummary report={tool.changes} />}
      {canRevert(tool) && <RevertControl callId={tool.id} />}
    </article>
  );
});

/** Which secrets the agent did not see, and the person's switch to show them here. */
function SecretNotice(props: {
  secrets: readonly SecretMark[];
  revealed: boolean;
  canReveal: boolean;
  onToggle: () => void;
}): React.JSX.Element {
  const kinds = [...new Set(props.secrets.map((s) => s.kind))].join(', ');
  const count = props.secrets.length;
  return (
    <p className="secret-notice">
      <span>
        {count === 1 ? 'A secret was' : `${count} secrets were`} masked for the agent:{' '}
        <VisibleText text={kinds} layout="inline" />.
      </span>
      {props.canReveal && (
        <button type="button" className="link-button" onClick={props.onToggle}>
          {props.revealed ? 'Hide them' : 'Show them here'}
        </button>
      )}
    </p>
  );
}

/** "Changes on disk …: N files changed" and the files at once (names escaped); diffs on request. */
function ChangeSummary({ report }: { report: ChangeReport }): React.JSX.Element {
  const diffs =
    report.kind === 'tracked' ? report.files.map((f) => f.diff).filter((d) => d !== '') : [];
  return (
    <div className="change-summary">
      <pre>
        <VisibleText text={changeSummaryLines(report).join('\n')} layout="lines" />
      </pre>
      {diffs.length > 0 && (
        <details>
          <summary>Show the diffs</summary>
          <pre className="diff">
            {diffs
              .join('\n')
              .split('\n')
              .map((line, i) => (
                <span key={i} className={diffLineClass(line)}>
                  <VisibleText text={line} layout="lines" />
                  {'\n'}
                </span>
              ))}
          </pre>
        </details>
      )}
    </div>
  );
}

function RevertControl({ callId }: { callId: string }): React.JSX.Element {
  const state = useSessionStore((s) => s.reverts[`call:${callId}`]);
  const revertCall = useSessionStore((s) => s.revertCall);
  const reverted = state?.status === 'done' && state.outcome.ok;
  return (
    <div className="card-actions">
      <button
        type="button"
        className="button"
        disabled={state?.status === 'pending' || reverted}
        onClick={() => void revertCall(callId)}
      >
        {reverted ? 'Reverted' : 'Revert'}
      </button>
      {state?.status === 'done' && (
        <span aria-live="polite" className={state.outcome.ok ? 'ok-text' : 'warn-text'}>
          <VisibleText text={state.outcome.message} layout="lines" />
        </span>
      )}
    </div>
  );
}

/** One line of at most 120 characters (cut between code points), escapes shown. */
function summariseArgs(args: unknown): string {
  const text =
    typeof args === 'string'
      ? args
      : typeof args !== 'object' || args === null
        ? String(args)
        : Object.entries(args)
            .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : safeJsonStringify(v)}`)
            .join(', ');
  const points = Array.from(text);
  const cut = points.length > 120 ? `${points.slice(0, 119).join('')}…` : text;
  return visibleText(cut, { layout: 'inline' });
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
