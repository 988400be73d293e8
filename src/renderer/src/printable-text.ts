// Tool results shown in a plain <pre>: escape sequences and control characters removed, so a
// result cannot restyle or garble the card (React already escapes the markup).
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
// C0 controls except tab and newline, DEL, and C1 controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function printableText(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n/g, '\n').replace(CONTROL, '');
}
