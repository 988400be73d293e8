// A shell card's live output in xterm.js: the pty's raw bytes with their colours, scrollback
// capped. While the command runs the person can type into it; keystrokes go to that command's
// pty only (main checks it is still running). The model has no path to this.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { TERMINAL_INPUT_MAX } from '../../../shared/api';

/** Lines kept above the screen; older ones are dropped (DESIGN.md §6). */
const TERMINAL_SCROLLBACK = 2000;
const MIN_ROWS = 2;
const MAX_ROWS = 18;

interface Live {
  readonly terminal: Terminal;
  readonly fit: FitAddon;
  /** How many characters of the stream (outputTotal) this terminal has been given. */
  written: number;
}

export function ShellTerminal(props: {
  callId: string;
  label: string;
  output: string;
  outputTotal: number;
  running: boolean;
  /** The person typed into the running command. */
  onInput?: () => void;
}): React.JSX.Element {
  const { callId, output, outputTotal, running } = props;
  const onInput = useRef(props.onInput);
  useEffect(() => {
    onInput.current = props.onInput;
  });
  const host = useRef<HTMLDivElement>(null);
  const live = useRef<Live | null>(null);
  const runningNow = useRef(running);
  const [inputNote, setInputNote] = useState<string | null>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const terminal = new Terminal({
      scrollback: TERMINAL_SCROLLBACK,
      rows: MIN_ROWS,
      cols: 80,
      fontSize: 12,
      fontFamily: "ui-monospace, 'SFMono-Regular', 'JetBrains Mono', Menlo, Consolas, monospace",
      cursorBlink: false,
      cursorInactiveStyle: 'none',
      theme: { background: '#1b1f24', foreground: '#e6e6e6' },
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    const state: Live = { terminal, fit, written: 0 };
    live.current = state;
    const typing = terminal.onData((data) => {
      if (!runningNow.current) return;
      onInput.current?.();
      void sendInput(callId, data).then((delivered) =>
        setInputNote(
          delivered ? null : 'The command is no longer running; that input was not sent.',
        ),
      );
    });
    const resize = new ResizeObserver(() => fitColumns(state));
    resize.observe(element);
    fitColumns(state);
    return () => {
      typing.dispose();
      resize.disconnect();
      terminal.dispose();
      live.current = null;
    };
  }, [callId]);

  useEffect(() => {
    const state = live.current;
    if (!state) return;
    const missing = outputTotal - state.written;
    if (missing <= 0) return;
    // Past the card's cap the head is gone; the terminal then starts from what is kept.
    const chunk = missing >= output.length ? output : output.slice(output.length - missing);
    state.written = outputTotal;
    state.terminal.write(chunk, () => fitRows(state));
  }, [output, outputTotal]);

  useEffect(() => {
    runningNow.current = running;
    // A finished command has no cursor to type at (and keystrokes are no longer sent).
    if (!running) live.current?.terminal.write('\u001b[?25l');
  }, [running]);

  return (
    <div className="shell-terminal">
      <div
        ref={host}
        className="shell-terminal-screen"
        role="group"
        aria-label={`Terminal: ${props.label}`}
      />
      {running && <p className="terminal-hint">Type here to answer the command.</p>}
      {inputNote && <p className="terminal-hint warn-text">{inputNote}</p>}
    </div>
  );
}

async function sendInput(callId: string, data: string): Promise<boolean> {
  // A large paste goes in pieces main accepts.
  for (let at = 0; at < data.length; at += TERMINAL_INPUT_MAX) {
    const piece = data.slice(at, at + TERMINAL_INPUT_MAX);
    if (!(await window.tandem.sendTerminalInput(callId, piece).catch(() => false))) return false;
  }
  return true;
}

function fitColumns(state: Live): void {
  const cols = state.fit.proposeDimensions()?.cols;
  if (cols && cols !== state.terminal.cols) state.terminal.resize(cols, state.terminal.rows);
  fitRows(state);
}

/** As tall as the output, up to MAX_ROWS; longer output scrolls inside the terminal. */
function fitRows(state: Live): void {
  const buffer = state.terminal.buffer.active;
  let used = buffer.baseY + buffer.cursorY + 1;
  // A trailing newline leaves the cursor on an empty last line: do not count it.
  if (buffer.cursorX === 0 && used > 1) used -= 1;
  const rows = Math.min(MAX_ROWS, Math.max(MIN_ROWS, used));
  if (rows !== state.terminal.rows) state.terminal.resize(state.terminal.cols, rows);
}
