import type { ToolPreview } from '../../../shared/tool-types';

/** Exactly what will happen if the person allows the call. */
export function ApprovalPreview({ preview }: { preview: ToolPreview }): React.JSX.Element {
  switch (preview.kind) {
    case 'diff':
      return (
        <div className="preview">
          <p className="preview-caption">
            {preview.isNewFile ? 'New file' : 'Change to'} <code>{preview.path}</code>:{' '}
            {preview.summary}
          </p>
          <pre className="diff">
            {preview.diff.split('\n').map((line, i) => (
              <span key={i} className={diffLineClass(line)}>
                {line + '\n'}
              </span>
            ))}
          </pre>
        </div>
      );
    case 'command':
      return (
        <div className="preview">
          <pre className="command">
            <span className="prompt">$ </span>
            {preview.command}
          </pre>
          <p className="preview-caption">
            in <code>{preview.cwd}</code>
          </p>
          {/* Per-part verdicts matter once a line has several commands. */}
          {preview.parts.length > 1 && (
            <ul className="command-parts">
              {preview.parts.map((part, i) => (
                <li key={i} className={part.safe ? 'safe' : 'unsafe'}>
                  <code>{part.text}</code>
                  <span className="part-verdict">
                    {part.safe ? 'read-only' : part.reasons.join('; ') || 'needs approval'}
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
            {preview.method} {preview.url}
          </pre>
        </div>
      );
    case 'text':
      return (
        <div className="preview">
          <pre className="command">{preview.text}</pre>
        </div>
      );
  }
}

export function diffLineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  if (line.startsWith('@@')) return 'diff-hunk';
  return '';
}
