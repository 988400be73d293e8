import { VisibleText } from './visible-text';

/**
 * Rule descriptions mark commands and tool names with backticks; show those parts as code. The
 * commands came from the model: control and bidi characters are shown as escapes.
 */
export function RuleText({ text }: { text: string }): React.JSX.Element {
  const parts = text.split('`');
  return (
    <span className="rule-text">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i}>
            <VisibleText text={part} layout="inline" />
          </code>
        ) : (
          <VisibleText key={i} text={part} layout="inline" />
        ),
      )}
    </span>
  );
}
