// Holds a shell card's terminal. A finished command's terminal exists only near the viewport (a
// long trace would otherwise keep hundreds of xterm instances); off screen it keeps its height.
import { useLayoutEffect, useRef } from 'react';
import { useNearViewport } from './near-viewport';
import { ShellTerminal } from './shell-terminal';

export function TerminalSlot(props: {
  callId: string;
  label: string;
  output: string;
  outputTotal: number;
  running: boolean;
  /** The person typed into the running command. */
  onInput?: () => void;
}): React.JSX.Element {
  const slot = useRef<HTMLDivElement>(null);
  const near = useNearViewport(slot, '.trace');
  const lastHeight = useRef(0);
  const mounted = props.running || near;

  // Off screen the slot keeps the terminal's last height, so the trace does not jump.
  useLayoutEffect(() => {
    const element = slot.current;
    if (!element) return;
    if (mounted) {
      element.style.height = '';
      lastHeight.current = element.offsetHeight;
    } else {
      element.style.height = `${Math.max(lastHeight.current, 40)}px`;
    }
  });

  return (
    <div ref={slot} className="terminal-slot">
      {mounted && <ShellTerminal {...props} />}
    </div>
  );
}
