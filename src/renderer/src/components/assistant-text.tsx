// The agent's text as sanitized GitHub-flavoured markdown (tables, task lists, strikethrough):
// raw HTML in it is dropped by rehype-sanitize; code blocks are highlighted with a Copy button;
// links open in the browser (main opens them outside).
import { memo, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './code-block';

const REMARK_PLUGINS = [remarkGfm];
const REHYPE_PLUGINS = [rehypeSanitize];

const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
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
  return { text: textOf(props.children), fence };
}

function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(textOf).join('');
  return '';
}
