import { describe, expect, it } from 'vitest';
import { isAppUrl, isTrustedSender, type SenderFacts, type TrustedWindow } from './sender-check';

const fileApp: TrustedWindow = {
  webContentsId: 7,
  appUrl: 'file:///opt/tandem/out/renderer/index.html',
};
const devApp: TrustedWindow = { webContentsId: 7, appUrl: 'http://localhost:5173/' };
const ok: SenderFacts = { webContentsId: 7, frameUrl: fileApp.appUrl, isMainFrame: true };

describe('isTrustedSender', () => {
  it.each<[string, SenderFacts, TrustedWindow | null, boolean]>([
    ['our window, our page', ok, fileApp, true],
    [
      'our page with a hash route',
      { ...ok, frameUrl: `${fileApp.appUrl}#/session` },
      fileApp,
      true,
    ],
    ['no window yet', ok, null, false],
    ['another webContents', { ...ok, webContentsId: 8 }, fileApp, false],
    ['a subframe of our window', { ...ok, isMainFrame: false }, fileApp, false],
    ['frame gone', { ...ok, frameUrl: null }, fileApp, false],
    ['another local file', { ...ok, frameUrl: 'file:///tmp/evil.html' }, fileApp, false],
    ['a web page', { ...ok, frameUrl: 'https://example.com/' }, fileApp, false],
    ['dev server page', { ...ok, frameUrl: 'http://localhost:5173/index.html' }, devApp, true],
    ['other port in dev', { ...ok, frameUrl: 'http://localhost:5174/' }, devApp, false],
    ['file page in dev', { ...ok, frameUrl: fileApp.appUrl }, devApp, false],
  ])('%s', (_name, sender, trusted, expected) => {
    expect(isTrustedSender(sender, trusted)).toBe(expected);
  });
});

describe('isAppUrl', () => {
  it.each([
    ['not a url', 'file:///a/index.html', false],
    ['file:///a/index.html', 'not a url', false],
    ['file:///a/index.html?x=1', 'file:///a/index.html', true],
    ['file:///a/index.html/../index.html', 'file:///a/index.html', true],
    ['file://host/a/index.html', 'file:///a/index.html', false],
    ['data:text/html,hi', 'file:///a/index.html', false],
    ['chrome://settings', 'chrome://settings', false],
  ])('%s against %s → %s', (url, app, expected) => {
    expect(isAppUrl(url, app)).toBe(expected);
  });
});
