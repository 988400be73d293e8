// What the development preview adds to the built window's page: `window.tandem` over the bridge
// (the e2e tests' client, with the token from the address's fragment), and a badge and title
// that say plainly this is a development preview in a browser, not the Tandem app.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bridgeClientScript } from '../e2e/support/bridge-client';

export const PREVIEW_SCRIPT_PATH = 'tandem-preview.js';
const PREVIEW_BADGE = 'Development preview: the window in a browser, not the Tandem app';

export function previewPageScript(bridgeUrl: string): string {
  const badge = `(() => {
  document.title = 'Tandem (development preview)';
  const mark = () => {
    const badge = document.createElement('div');
    badge.id = 'tandem-development-preview';
    badge.setAttribute('role', 'note');
    badge.textContent = ${JSON.stringify(PREVIEW_BADGE)};
    Object.assign(badge.style, {
      position: 'fixed', top: '0', left: '50%', transform: 'translateX(-50%)',
      zIndex: '2147483647', padding: '2px 10px', borderRadius: '0 0 6px 6px',
      font: '600 11px system-ui, sans-serif', color: '#4a3000', background: '#ffd866',
      pointerEvents: 'none', opacity: '0.95',
    });
    document.body.appendChild(badge);
  };
  if (document.body) mark();
  else document.addEventListener('DOMContentLoaded', mark);
})();`;
  return `${bridgeClientScript(bridgeUrl, { tokenFromFragment: true })}\n${badge}\n`;
}

/**
 * Who may use the core: a socket whose Origin is the preview page's own (a page of any other site
 * gets none, even one whose name resolves to 127.0.0.1) and that presents the token.
 */
export function previewAdmission(
  origin: () => string,
  token: string,
): (request: IncomingMessage) => boolean {
  const expected = Buffer.from(token);
  return (request) => {
    if (request.headers.origin !== origin()) return false;
    const given = new URL(request.url ?? '/', 'http://x').searchParams.get('token') ?? '';
    const presented = Buffer.from(given);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  };
}
