// A fenced code block in an answer: highlighted (as React elements from a syntax tree, never an
// HTML string), with its language named and a Copy button.
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { memo, useMemo, useState } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { highlightCode, knownLanguage } from './code-highlight';

export const CodeBlock = memo(function CodeBlock(props: {
  code: string;
  fence: string | undefined;
}): React.JSX.Element {
  const language = knownLanguage(props.fence);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const highlighted = useMemo(() => {
    const tree = highlightCode(props.code, language);
    return tree ? toJsxRuntime(tree, { Fragment, jsx, jsxs }) : props.code;
  }, [props.code, language]);

  return (
    <div className="code-block">
      <div className="code-block-head">
        <span className="code-language">{props.fence ?? 'text'}</span>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            navigator.clipboard.writeText(props.code).then(
              () => setCopied('copied'),
              () => setCopied('failed'),
            );
          }}
        >
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </div>
      <pre>
        <code className={language ? `hljs language-${language}` : undefined}>{highlighted}</code>
      </pre>
    </div>
  );
});
