// What a link or an image in the agent's markdown may become (issue 11 item 8). The window is
// loaded from file://, so a relative or protocol-relative target (`//host/share/a.png`) resolves
// to a file or a UNC path: loading it is a zero-click beacon (on Windows, an NTLM hash leak).
// So: no image is ever loaded from an answer, a link is a link only to an absolute http(s) URL,
// and a link whose text looks like another address shows where it really goes.

export type LinkView =
  /** A clickable link (main opens it in the person's browser). */
  | { readonly kind: 'link'; readonly href: string; readonly claimed?: string }
  /** Shown as text: the words, and the target they named, if any. */
  | { readonly kind: 'text'; readonly target: string | undefined };

/** An absolute http(s) URL with a host, written out in full (not `//host`, not relative). */
export function isWebUrl(target: string): boolean {
  if (!/^https?:\/\/[^/\\]/i.test(target)) return false;
  try {
    const url = new URL(target);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** How the link `[text](href)` is shown. */
export function linkView(href: string | undefined, text: string): LinkView {
  if (href === undefined || href === '' || !isWebUrl(href)) {
    return { kind: 'text', target: href === '' ? undefined : href };
  }
  const claimed = claimedAddress(text);
  if (claimed !== undefined && !sameAddress(claimed, href)) {
    return { kind: 'link', href, claimed: text.trim() };
  }
  return { kind: 'link', href };
}

/** Link text that reads as an address (`https://x`, `www.x.com`, `x.com/path`), as a URL. */
function claimedAddress(text: string): URL | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)
    ? trimmed
    : /^(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:[/:?#]\S*)?$/i.test(trimmed)
      ? `https://${trimmed}`
      : undefined;
  if (withScheme === undefined) return undefined;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

/** Same host, path, query and fragment; the scheme counts only when the text wrote one. */
function sameAddress(claimed: URL, href: string): boolean {
  const real = new URL(href);
  const key = (url: URL): string =>
    `${url.host.toLowerCase()}${url.pathname.replace(/\/$/, '')}${url.search}${url.hash}`;
  return key(claimed) === key(real);
}
