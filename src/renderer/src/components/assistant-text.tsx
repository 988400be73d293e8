import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import { linkView } from './markdown-links';

/** The text inside a hast node (a link's words), for comparing with where it points. */
interface HastLike {
  readonly type: string;
  readonly value?: string;
  readonly children?: readonly HastLike[];
}

function textOf(node: HastLike | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

// Every URL reaches the components below as written: they alone decide what becomes an
// attribute (only absolute http(s) link targets do), so the rest can be shown as text.
const keepUrl = (url: string): string => url;

const COMPONENTS: Components = {
  a: ({ node, href, children }) => {
    const view = linkView(href, textOf(node as HastLike | undefined));
    if (view.kind === 'text') {
      return (
        <span className="inert-link">
          {children}
          {view.target !== undefined && <span className="link-target"> ({view.target})</span>}
        </span>
      );
    }
    if (view.claimed !== undefined) {
      // The words name one address and the link goes to another: show the real one.
      return (
        <span className="mismatched-link">
          <a href={view.href} target="_blank" rel="noreferrer noopener">
            {view.href}
          </a>
          <span className="link-target"> (the text said “{view.claimed}”)</span>
        </span>
      );
    }
    return (
      <a href={view.href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  },
  // No image in an answer is ever loaded: it is shown as its description and address.
  img: ({ alt, src }) => (
    <span className="inert-image">
      [image{alt ? `: ${alt}` : ''}]
      {typeof src === 'string' && src !== '' && <span className="link-target"> ({src})</span>}
    </span>
  ),
};

/** The agent's text as sanitized markdown; links open in the browser (main opens them outside). */
export function AssistantText(props: { text: string; streaming: boolean }): React.JSX.Element {
  return (
    <div className={`assistant-text${props.streaming ? ' streaming' : ''}`}>
      <Markdown rehypePlugins={[rehypeSanitize]} urlTransform={keepUrl} components={COMPONENTS}>
        {props.text}
      </Markdown>
    </div>
  );
}
