// One tool call, one card: its approval (when it asked), its progress and its result. Output is
// a one-line summary until the person opens the card (a running command shows its terminal).
// Name, arguments, output and change summary are text the model, a file or a program controls:
// all of it is shown through VisibleText (escapes, never raw control or bidi characters); the
// live terminal of a shell call is xterm.js's job.
import { memo, useState } from 'react';
import { changeSummaryLines, type ChangeReport } from '../../../shared/change-report';
import { safeJsonStringify } from '../../../shared/safe-json';
import type { SecretMark } from '../../../shared/tool-types';
import { visibleText } from '../../../shared/visible-text';
import { useSessionStore } from '../stores/session-store';
import { canRevert, commandText } from '../stores/tool-changes';
import { outputSummary } from '../stores/tool-summary';
import type { ToolItem, ToolStatus } from '../stores/trace-model';
import { ApprovalPanel } from './approval-panel';
import { DiffView } from './diff-view';
import { formatDuration, formatElapsed } from './durations';
import { RuleText } from './rule-text';
import { TerminalSlot } from './terminal-slot';
import { ToolImages } from './tool-images';
import { useNow } from './use-now';
import { useRunningFor } from './use-running-for';
import { VisibleText } from './visible-text';

/**
 * A running command shows its terminal once it has run this long: a quick one (most are) would
 * only flash a terminal open and shut, and building one costs more than the command took.
 */
const TERMINAL_AFTER_MS = 300;

const STATUS_LABELS: Record<ToolStatus, string> = {
  running: 'Running',
  waiting: 'Waiting for you',
  done: 'Done',
  failed: 'Failed',
  refused: 'Not run',
  stopped: 'Stopped',
};

export interface CardQueue {
  readonly position: number;
  readonly count: number;
}

export const ToolCallCard = memo(function ToolCallCard(props: {
  tool: ToolItem;
  /** Set while its approval is pending: its place among the waiting cards. */
  queue: CardQueue | null;
  /** Shift+Y / Shift+N on a stack of approvals. */
  onAll?: (allow: boolean) => void;
}): React.JSX.Element {
  const { tool, queue, onAll } = props;
  const override = useSessionStore((s) => s.expanded[tool.id]);
  const setExpanded = useSessionStore((s) => s.setExpanded);
  const [revealed, setRevealed] = useState(false);
  const isShell = tool.name === 'shell';
  const running = tool.status === 'running';
  // A running command shows its terminal (the person may need to answer it); the rest is a line.
  const ranAWhile = useRunningFor(running && isShell, TERMINAL_AFTER_MS);
  const open = override ?? ranAWhile;
  // Secrets are masked in what the agent was given; the person may show them here, locally.
  const result = revealed && tool.unmasked !== undefined ? tool.unmasked : tool.result;
  const hasTerminal = isShell && tool.status !== 'refused' && (running || tool.outputTotal > 0);
  const plain = isShell ? commandText(tool, result) : (result ?? tool.output);
  const summary = outputSummary(tool);
  const name = visibleText(tool.name, { layout: 'inline' });
  // "Ran because" is news only when a call that could have asked ran without a card.
  const provenance = !tool.approval && tool.effect !== 'read' ? tool.provenance : undefined;

  return (
    <article className={`tool-card status-${tool.status}`} aria-label={`Tool call ${name}`}>
      <div className="tool-card-head">
        <button
          type="button"
          className="tool-card-toggle"
          onClick={() => setExpanded(tool.id, !open)}
          aria-expanded={open}
        >
          <span className={`effect effect-${tool.effect}`}>{tool.effect}</span>
          <span className="tool-name">
            <VisibleText text={tool.name} layout="inline" />
          </span>
          <span className="tool-args">{summariseArgs(tool.args)}</span>
        </button>
        <span className={`tool-status ${tool.status}`}>{STATUS_LABELS[tool.status]}</span>
        {running && tool.runningSince !== undefined && <Elapsed since={tool.runningSince} />}
        {tool.durationMs !== undefined && tool.status !== 'refused' && !running && (
          <span className="muted nowrap">{formatDuration(tool.durationMs)}</span>
        )}
        {running && isShell && <StopCall callId={tool.callId} />}
      </div>
      {tool.approval && (
        <ApprovalPanel
          // A card asked again (an edit that needs more, a changed file) starts afresh.
          key={tool.approval.requestId}
          tool={{ ...tool, approval: tool.approval }}
          active={queue?.position === 1}
          queue={queue}
          {...(onAll ? { onAll } : {})}
        />
      )}
      {tool.secrets && tool.secrets.length > 0 && (
        <SecretNotice
          secrets={tool.secrets}
          revealed={revealed}
          canReveal={tool.unmasked !== undefined}
          onToggle={() => {
            // Showing them opens the card: the output is where they are.
            if (!revealed) setExpanded(tool.id, true);
            setRevealed(!revealed);
          }}
        />
      )}
      {provenance && (
        <p className="provenance">
          Ran because: <RuleText text={provenance} />
        </p>
      )}
      {!open && summary !== null && (
        <button
          type="button"
          className="tool-summary"
          onClick={() => setExpanded(tool.id, true)}
          aria-label={`Show the output of ${name}`}
        >
          <VisibleText text={summary} layout="inline" dropColours />
          <span className="expander">Show</span>
        </button>
      )}
      {open && (
        <div className="tool-card-body">
          <pre className="tool-args-full">
            <VisibleText text={safeJsonStringify(tool.args, { space: 2 })} layout="lines" />
          </pre>
          {hasTerminal ? (
            <TerminalSlot
              callId={tool.callId}
              label={summariseArgs(tool.args)}
              output={tool.output}
              outputTotal={tool.outputTotal}
              running={running}
              // A terminal the person typed into stays open when the command ends: its answer
              // is there.
              onInput={() => {
                if (override === undefined) setExpanded(tool.id, true);
              }}
            />
          ) : (
            plain !== '' && (
              <pre className="tool-output">
                <VisibleText text={plain} layout="lines" dropColours />
              </pre>
            )
          )}
          {isShell && plain !== '' && !running && (
            <details className="model-view">
              <summary>What the agent was given</summary>
              <pre className="tool-args-full">
                <VisibleText text={plain} layout="lines" dropColours />
              </pre>
            </details>
          )}
        </div>
      )}
      <ToolImages images={tool.images} />
      {tool.changes && !nothingChanged(tool.changes) && <ChangeSummary report={tool.changes} />}
      {canRevert(tool) && <RevertControl callId={tool.callId} reverted={tool.reverted === true} />}
    </article>
  );
});

function Elapsed({ since }: { since: number }): React.JSX.Element {
  const now = useNow(1000);
  return <span className="muted nowrap elapsed">{formatElapsed(now - since)}</span>;
}

function StopCall({ callId }: { callId: string }): React.JSX.Element {
  const stopCall = useSessionStore((s) => s.stopCall);
  return (
    <button
      type="button"
      className="button small danger-outline"
      onClick={() => void stopCall(callId)}
    >
      Stop command
    </button>
  );
}

/** "Changes on disk: none." is not news; a change (or not knowing) is. */
function nothingChanged(report: ChangeReport): boolean {
  return report.kind === 'tracked' && report.files.length === 0 && report.notTracked.length === 0;
}

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
          <DiffView diff={diffs.join('\n')} />
        </details>
      )}
    </div>
  );
}

function RevertControl(props: { callId: string; reverted: boolean }): React.JSX.Element {
  const state = useSessionStore((s) => s.reverts[`call:${props.callId}`]);
  const revertCall = useSessionStore((s) => s.revertCall);
  const reverted = props.reverted || (state?.status === 'done' && state.outcome.ok);
  return (
    <div className="card-actions">
      <button
        type="button"
        className="button"
        disabled={state?.status === 'pending' || reverted}
        onClick={() => void revertCall(props.callId)}
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
