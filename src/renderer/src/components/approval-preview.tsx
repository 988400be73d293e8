import type { ToolPreview } from '../../../shared/tool-types';
import { DiffView } from './diff-view';
import { VisibleText } from './visible-text';

/**
 * Exactly what will happen if the person allows the call. Every command, path, argument, URL and
 * reason is the model's text: it is shown through VisibleText, so control and bidi characters
 * appear as escapes, and it wraps (never clipped, never scrolled sideways).
 */
export function ApprovalPreview({ preview }: { preview: ToolPreview }): React.JSX.Element {
  switch (preview.kind) {
    case 'diff':
      return (
        <div className="preview">
          <p className="preview-caption">
            {preview.isNewFile ? 'New file' : 'Change to'}{' '}
            <code>
              <VisibleText text={preview.path} layout="inline" />
            </code>
            : {preview.summary}
          </p>
          <DiffView diff={preview.diff} fallbackName={preview.path} />
        </div>
      );
    case 'command':
      return (
        <div className="preview">
          <pre className="command">
            <span className="prompt">$ </span>
            <VisibleText text={preview.command} layout="inline" breakAtNewline />
          </pre>
          <p className="preview-caption">
            in{' '}
            <code>
              <VisibleText text={preview.cwd} layout="inline" />
            </code>
          </p>
          {/* Per-part verdicts matter once a line has several commands. */}
          {preview.parts.length > 1 && (
            <ul className="command-parts">
              {preview.parts.map((part, i) => (
                <li key={i} className={part.safe ? 'safe' : 'unsafe'}>
                  <code>
                    <VisibleText text={part.text} layout="inline" />
                  </code>
                  <span className="part-verdict">
                    {part.safe ? (
                      'read-only'
                    ) : (
                      <VisibleText
                        text={part.reasons.join('; ') || 'needs approval'}
                        layout="inline"
                      />
                    )}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <p className={`sandbox-line ${preview.sandbox.available ? '' : 'warn-text'}`}>
            {preview.sandbox.available
              ? `Sandbox: ${preview.sandbox.description}`
              : `Not sandboxed: ${preview.sandbox.description}`}
          </p>
        </div>
      );
    case 'url':
      return (
        <div className="preview">
          <pre className="command">
            <VisibleText text={`${preview.method} ${preview.url}`} layout="inline" />
          </pre>
        </div>
      );
    case 'text':
      return (
        <div className="preview">
          <pre className="command">
            <VisibleText text={preview.text} layout="lines" />
          </pre>
        </div>
      );
  }
}
