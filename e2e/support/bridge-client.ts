// The page side of the test bridge: a script (injected with page.addInitScript before the app's
// own code, or served beside the page by `npm run preview`) that defines `window.tandem` with
// every TandemApi method forwarded over a WebSocket. Arguments are sent exactly as given, so
// main's validation sees what a hostile page could send.
import { TANDEM_INVOKE_METHODS } from '../../src/shared/api';

export interface BridgeClientOptions {
  /**
   * Take the bridge's token from the page's fragment (#token=…, never sent to a server), keep it
   * for reloads in this tab's sessionStorage, and take it out of the address bar.
   */
  readonly tokenFromFragment?: boolean;
}

export function bridgeClientScript(bridgeUrl: string, options: BridgeClientOptions = {}): string {
  const url = options.tokenFromFragment
    ? `(() => {
    const given = new URLSearchParams(location.hash.slice(1)).get('token');
    if (given) sessionStorage.setItem('tandem-bridge-token', given);
    history.replaceState(null, '', location.pathname + location.search);
    const token = sessionStorage.getItem('tandem-bridge-token') || '';
    return ${JSON.stringify(`${bridgeUrl}/?token=`)} + encodeURIComponent(token);
  })()`
    : JSON.stringify(bridgeUrl);
  return `(() => {
  const methods = ${JSON.stringify(TANDEM_INVOKE_METHODS)};
  const socket = new WebSocket(${url});
  const opened = new Promise((resolve, reject) => {
    socket.addEventListener('open', () => resolve(undefined));
    socket.addEventListener('error', () => reject(new Error('The test bridge is not reachable.')));
  });
  const pending = new Map();
  const listeners = new Set();
  let nextId = 1;
  socket.addEventListener('message', (message) => {
    const reply = JSON.parse(message.data);
    if (reply.kind === 'event') {
      for (const listener of [...listeners]) listener(reply.event);
      return;
    }
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    if (reply.ok) call.resolve(reply.value);
    else call.reject(new Error(reply.error));
  });
  socket.addEventListener('close', () => {
    for (const call of pending.values()) call.reject(new Error('The test bridge closed.'));
    pending.clear();
  });
  const api = {
    onEvent(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
  };
  for (const method of methods) {
    api[method] = async (...args) => {
      await opened;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, args }));
      });
    };
  }
  Object.defineProperty(window, 'tandem', { value: Object.freeze(api), enumerable: true });
})();`;
}
