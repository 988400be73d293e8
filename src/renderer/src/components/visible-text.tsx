// Text the model, a file or a tool controls, as the window shows it: control, bidi and invisible
// characters become escapes (src/shared/visible-text.ts) drawn in a marked span, so a real ESC
// and the four typed characters `\x1b` never look the same. React escapes the markup.
import { Fragment } from 'react';
import { visiblePieces, type VisibleLayout } from '../../../shared/visible-text';

export function VisibleText(props: {
  text: string;
  layout: VisibleLayout;
  /** Program output: colour sequences removed (they cannot be drawn here; removing only reveals). */
  dropColours?: boolean;
  /** A command block: after a `\n` escape the text goes on on a new line, as the shell reads it. */
  breakAtNewline?: boolean;
}): React.JSX.Element {
  const { text, layout, dropColours = false, breakAtNewline = false } = props;
  const pieces = visiblePieces(text, { layout, dropColours });
  return (
    <>
      {pieces.map((piece, i) =>
        piece.kind === 'text' ? (
          <Fragment key={i}>{piece.text}</Fragment>
        ) : (
          <Fragment key={i}>
            <span className="escape" title={`Hidden character U+${codeOf(piece.codePoint)}`}>
              {piece.text}
            </span>
            {breakAtNewline && piece.codePoint === 0x0a ? '\n' : null}
          </Fragment>
        ),
      )}
    </>
  );
}

function codeOf(codePoint: number): string {
  return codePoint.toString(16).toUpperCase().padStart(4, '0');
}
