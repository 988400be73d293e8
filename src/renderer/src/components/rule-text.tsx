/** Rule descriptions mark commands and tool names with backticks; show those parts as code. */
export function RuleText({ text }: { text: string }): React.JSX.Element {
  const parts = text.split('`');
  return (
    <span className="rule-text">
      {parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}
    </span>
  );
}
