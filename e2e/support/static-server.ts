// Serves the built renderer (out/renderer) over http://127.0.0.1 for the window tests. The page
// keeps the app's CSP, with one addition only here: connect-src for the test bridge socket.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../src/main/content-security-policy';

const TEST_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "connect-src 'self'",
  "connect-src 'self' ws://127.0.0.1:*",
);

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
  close(): Promise<void>;
}

export async function startStaticServer(root: string): Promise<StaticServer> {
  const server = createServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
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
        body = Buffer.from(
          body.toString('utf8').replace(CONTENT_SECURITY_POLICY, TEST_CONTENT_SECURITY_POLICY),
        );
      }
      response.writeHead(200, {
        'Content-Type': type,
        'Content-Security-Policy': TEST_CONTENT_SECURITY_POLICY,
        'Cache-Control': 'no-store',
      });
      response.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
