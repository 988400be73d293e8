import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';

/** The agent's text as sanitized markdown; links open in the browser (main opens them outside). */
export function AssistantText(props: { text: string; streaming: boolean }): React.JSX.Element {
  return (
    <div className={`assistant-text${props.streaming ? ' streaming' : ''}`}>
      <Markdown
        rehypePlugins={[rehypeSanitize]}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {children}
            </a>
          ),
        }}
      >
        {props.text}
      </Markdown>
    </div>
  );
}
