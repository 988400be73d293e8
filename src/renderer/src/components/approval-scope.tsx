// Under the card's buttons: exactly what "for session", "for 30 minutes" and "always" would
// allow, e.g. "`rm build` exactly", so no answer allows more than the person read.
import { RuleText } from './rule-text';

export function ApprovalScope(props: {
  storable: readonly string[] | undefined;
}): React.JSX.Element | null {
  const { storable } = props;
  // Old transcripts do not say; then the card says nothing rather than guess.
  if (storable === undefined) return null;
  return (
    <p className="approval-scope">
      {storable.length === 0 ? (
        'Session, timed and always answers allow this call only: nothing here can be stored as a rule.'
      ) : (
        <>
          Session, timed and always answers cover{' '}
          {storable.map((rule, i) => (
            <span key={i}>
              {i > 0 && ', '}
              <RuleText text={rule} />
            </span>
          ))}
          . “Always allow…” shows the rule, and any wider one you may pick, before storing it.
        </>
      )}
    </p>
  );
}
