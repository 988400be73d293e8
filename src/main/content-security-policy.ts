// The window's Content-Security-Policy. Main sends it as a header and src/renderer/index.html
// carries the same text in a <meta> (a test keeps the two equal): only our own scripts, styles
// and images; no inline script, no eval, no network, no frames, no plugins. Inline *styles* are
// allowed: xterm.js (the shell cards' terminals) sizes and colours its rows through <style>
// elements it creates. Styles cannot run code; script-src stays 'self' only.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "frame-src 'none'",
].join('; ');

/** Development only: the Vite dev server needs its inline React-refresh preamble and HMR socket. */
export const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "script-src 'self'",
  "script-src 'self' 'unsafe-inline'",
).replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*");
