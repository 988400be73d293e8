// The agent's text as sanitized GitHub-flavoured markdown (tables, task lists, strikethrough):
// raw HTML in it is dropped by rehype-sanitize; code blocks are highlighted with a Copy button.
// No image in an answer is ever loaded, and a link is a link only to an absolute http(s) URL
// (main opens it outside); a link whose words name another address shows the real one.
import { memo, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './code-block';
import { linkView } from './markdown-links';

/** The text inside a hast node (a link's words), for comparing with where it points. */
interface HastLike {
  readonly type: string;
  readonly value?: string;
  readonly children?: readonly HastLike[];
}

function hastText(node: HastLike | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(hastText).join('');
}

// Every URL reaches the components below as written: they alone decide what becomes an
// attribute (only absolute http(s) link targets do), so the rest can be shown as text.
const keepUrl = (url: string): string => url;

const REMARK_PLUGINS = [remarkGfm];
const REHYPE_PLUGINS = [rehypeSanitize];

const COMPONENTS: Components = {
  a: ({ node, href, children }) => {
    const view = linkView(href, hastText(node as HastLike | undefined));
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
  // A fenced block is <pre><code class="language-x">; inline code stays as it is.
  pre: ({ children }) => {
    const code = firstCode(children);
    if (!code) return <pre>{children}</pre>;
    return <CodeBlock code={code.text.replace(/\n$/, '')} fence={code.fence} />;
  },
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

export const AssistantText = memo(function AssistantText(props: {
  text: string;
  streaming: boolean;
}): React.JSX.Element {
  return (
    <div className={`assistant-text${props.streaming ? ' streaming' : ''}`}>
      <Markdown
        remarkPlugins={REMARK_PLUGINS}
        rehypePlugins={REHYPE_PLUGINS}
        urlTransform={keepUrl}
        components={COMPONENTS}
      >
        {props.text}
      </Markdown>
    </div>
  );
});

/** The text and fence language of the <code> element a <pre> holds. */
function firstCode(children: ReactNode): { text: string; fence: string | undefined } | null {
  const child = Array.isArray(children) ? children[0] : children;
  if (typeof child !== 'object' || child === null || !('props' in child)) return null;
  const props = child.props as { className?: unknown; children?: unknown };
  const className = typeof props.className === 'string' ? props.className : '';
  const fence = /(?:^|\s)language-([\w+#.-]+)/.exec(className)?.[1];
  return { text: reactText(props.children), fence };
}

function reactText(node: unknown): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(reactText).join('');
  return '';
}
