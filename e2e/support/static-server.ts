// Serves the built renderer (out/renderer) over http://127.0.0.1 for the window tests and for
// `npm run preview`. The page keeps the app's CSP, with one addition only here: connect-src for
// the bridge socket. Requests must name this server as 127.0.0.1:<port> in their Host header, so
// a web page whose own name resolves to 127.0.0.1 (DNS rebinding) gets nothing.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../src/main/content-security-policy';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface StaticServer {
  readonly url: string;
  /** http://127.0.0.1:<port>, what a browser sends as Origin from these pages. */
  readonly origin: string;
  close(): Promise<void>;
}

export interface StaticServerOptions {
  /** The one socket the page may open (default: any port on 127.0.0.1, for the tests). */
  readonly connectSrc?: string;
  /** A script served at `/<path>` and loaded by index.html before the app's own code. */
  readonly inject?: { readonly path: string; readonly script: string };
}

export async function startStaticServer(
  root: string,
  options: StaticServerOptions = {},
): Promise<StaticServer> {
  const policy = CONTENT_SECURITY_POLICY.replace(
    "connect-src 'self'",
    `connect-src 'self' ${options.connectSrc ?? 'ws://127.0.0.1:*'}`,
  );
  let host = '';
  const server = createServer((request, response) => {
    void (async () => {
      if (request.headers.host !== host) {
        response.writeHead(403).end();
        return;
      }
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
      } catch {
        response.writeHead(400).end();
        return;
      }
      if (options.inject && pathname === `/${options.inject.path}`) {
        response.writeHead(200, {
          'Content-Type': CONTENT_TYPES['.js'] ?? 'text/javascript',
          'Content-Security-Policy': policy,
          'Cache-Control': 'no-store',
        });
        response.end(options.inject.script);
        return;
      }
      const file = normalize(join(root, pathname === '/' ? 'index.html' : pathname));
      if (file !== root && !file.startsWith(root + sep)) {
        response.writeHead(403).end();
        return;
      }
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch {
        response.writeHead(404).end();
        return;
      }
      const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
      if (extname(file) === '.html') {
        // The <meta> policy would also apply (policies combine), so it gets the same addition.
        let html = body.toString('utf8').replace(CONTENT_SECURITY_POLICY, policy);
        if (options.inject) {
          html = html.replace('</head>', `<script src="./${options.inject.path}"></script></head>`);
        }
        body = Buffer.from(html);
      }
      response.writeHead(200, {
        'Content-Type': type,
        'Content-Security-Policy': policy,
        'Cache-Control': 'no-store',
      });
      response.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}/`,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
