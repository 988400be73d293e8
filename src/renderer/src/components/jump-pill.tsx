// Shown when the person scrolled up and something new is below: the latest output, or a card
// waiting for an answer (one click brings it into view; End jumps to the latest).
export function JumpPill(props: {
  waiting: number;
  onLatest: () => void;
  onApproval: () => void;
}): React.JSX.Element {
  const { waiting } = props;
  return (
    <div className="jump-pill" role="status">
      {waiting > 0 ? (
        <button type="button" className="pill-button waiting" onClick={props.onApproval}>
          {waiting} approval{waiting === 1 ? '' : 's'} waiting ↓
        </button>
      ) : (
        <button
          type="button"
          className="pill-button"
          onClick={props.onLatest}
          aria-keyshortcuts="End"
        >
          Jump to latest ↓
        </button>
      )}
    </div>
  );
}
