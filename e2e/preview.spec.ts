// `npm run preview` (scripts/preview.ts, started here with --no-open): the built window in Chromium
// runs a task on the real core through the bridge, says it is a development preview, and the core
// answers only that page — not another origin, not a wrong or missing token, not a foreign Host.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import NodeWebSocket from 'ws';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
} from '../src/test-support/scripted-openai-server';
import { requireBuiltRenderer } from './support/app-page';
import { launchChromium } from './support/chromium';

let root: string;
let project: string;
let model: ScriptedServer;
let preview: ChildProcessWithoutNullStreams;
let printed = '';
let address: URL;
let browser: Browser;

beforeAll(async () => {
  requireBuiltRenderer();
  root = await realpath(await mkdtemp(join(tmpdir(), 'tandem-e2e-preview-')));
  project = join(root, 'shop');
  await mkdir(project);
  await writeFile(join(project, 'notes.txt'), 'alpha\n');
  model = await startScriptedOpenAIServer({
    turns: [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'hi\n' } }] },
      { text: 'Wrote **out.txt** from the preview.' },
    ],
  });
  preview = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/preview.ts',
      '--no-open',
      '--folder',
      project,
      '--base-url',
      model.baseUrl,
      '--model',
      'scripted-model',
      '--data-dir',
      join(root, 'data'),
    ],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: join(root, 'home'),
        TANDEM_USER_DATA_DIR: join(root, 'no-window'),
      },
    },
  );
  preview.stdout.on('data', (d: Buffer) => (printed += d.toString()));
  preview.stderr.on('data', (d: Buffer) => (printed += d.toString()));
  for (let i = 0; i < 600 && !/window: +(\S+)/.test(printed); i++) {
    if (preview.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const found = /window: +(\S+)/.exec(printed);
  if (!found?.[1]) throw new Error(`the preview did not start:\n${printed}`);
  address = new URL(found[1]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (preview && preview.exitCode === null) {
    const exited = new Promise((resolve) => preview.once('exit', resolve));
    preview.kill('SIGTERM');
    await exited;
  }
  await model?.close();
  await rm(root, { recursive: true, force: true });
});

/** The bridge's address, as the page's script names it. */
async function bridgeUrl(): Promise<string> {
  const script = await get('/tandem-preview.js', address.host);
  const found = /ws:\/\/127\.0\.0\.1:\d+/.exec(script.body);
  if (!found) throw new Error('no bridge address in the page script');
  return found[0];
}

function get(path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: address.port, path, headers: { host } },
      (response) => {
        let body = '';
        response.on('data', (d: Buffer) => (body += d.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** 'open', or the HTTP status the bridge refused the upgrade with. */
function connect(url: string, origin: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new NodeWebSocket(url, { origin });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
    socket.on('error', (error) => resolve(`error ${error.message}`));
  });
}

describe('npm run preview', () => {
  it('prints where it is and that it is a development preview, not the app', () => {
    expect(printed).toContain('Tandem development preview');
    expect(printed).toContain('Not the app');
    expect(address.hostname).toBe('127.0.0.1');
    expect(address.hash).toMatch(/^#token=[A-Za-z0-9_-]{40,}$/);
    expect(printed).toContain(`model:   scripted-model at ${model.baseUrl} (from the flags)`);
  });

  it('opens the built window on the real core: a task runs, with its approval card', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 720 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(address.href);
    await page.getByRole('note').getByText('Development preview').waitFor();
    expect(await page.title()).toBe('Tandem (development preview)');
    // The token leaves the address bar (it stays in this tab for reloads).
    expect(page.url()).toBe(`${address.origin}/`);

    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('heading', { name: 'shop' }).waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill('write out.txt');
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    const card = page.getByRole('article', { name: 'Approval for write_file' });
    await card.getByRole('button', { name: /^Allow once/ }).click();
    await page.getByText('from the preview').waitFor();
    expect(await readFile(join(project, 'out.txt'), 'utf8')).toBe('hi\n');

    await page.reload();
    await page.getByRole('note').getByText('Development preview').waitFor();
    expect(await page.evaluate(() => window.tandem.ping('again'))).toBe('pong: again');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lets only its own page in: origin and token checked, Host checked', async () => {
    const bridge = await bridgeUrl();
    const token = address.hash.slice('#token='.length);
    const good = `${bridge}/?token=${token}`;
    expect(await connect(good, address.origin)).toBe('open');
    expect(await connect(good, 'http://evil.example')).toBe('refused 401');
    expect(await connect(good, 'http://127.0.0.1:1')).toBe('refused 401');
    expect(await connect(`${bridge}/?token=${token.slice(1)}x`, address.origin)).toBe(
      'refused 401',
    );
    expect(await connect(`${bridge}/`, address.origin)).toBe('refused 401');

    // A page of another site that resolves to 127.0.0.1 (DNS rebinding) gets nothing.
    expect((await get('/', `evil.example:${address.port}`)).status).toBe(403);
    expect((await get('/', address.host)).status).toBe(200);
  });

  it('a page on another origin cannot reach the core from a browser', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('about:blank');
    const token = address.hash.slice('#token='.length);
    const outcome = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(url);
          socket.onopen = () => resolve('open');
          socket.onerror = () => resolve('refused');
        }),
      `${await bridgeUrl()}/?token=${token}`,
    );
    expect(outcome).toBe('refused');
    await context.close();
  });
});
