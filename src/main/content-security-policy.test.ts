import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY } from './content-security-policy';

describe('Content-Security-Policy', () => {
  it('index.html carries exactly the policy main sends', () => {
    const html = readFileSync(join(__dirname, '../renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html);
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });

  it('allows no inline script, eval or remote connections in the built app', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|ws:/);
    // Only styles may be inline (xterm.js injects <style> elements); never scripts.
    const directives = CONTENT_SECURITY_POLICY.split('; ');
    expect(directives.filter((d) => d.includes('unsafe-inline'))).toEqual([
      "style-src 'self' 'unsafe-inline'",
    ]);
  });

  it('loosens only script/style/connect for the dev server', () => {
    expect(DEV_CONTENT_SECURITY_POLICY).not.toBe(CONTENT_SECURITY_POLICY);
    expect(DEV_CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(DEV_CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });
});
