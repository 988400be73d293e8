import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BWRAP_BASE_ARGS, BWRAP_ISOLATION_ARGS } from './sandbox-launcher';
import { probeSandbox, sandboxForCall } from './sandbox-probe';

function bwrapWorks(): boolean {
  try {
    // The isolation every command gets must work, or the probe must not say bwrap is available.
    execFileSync('bwrap', [...BWRAP_BASE_ARGS, '--unshare-net', ...BWRAP_ISOLATION_ARGS, 'true']);
    return true;
  } catch {
    return false;
  }
}

describe('probeSandbox', () => {
  it('reports bubblewrap exactly when it works here, and probes once', async () => {
    const first = probeSandbox();
    expect(probeSandbox()).toBe(first);
    const state = await first;
    if (process.platform === 'linux') {
      expect(state.kind).toBe(bwrapWorks() ? 'bwrap' : 'none');
      expect(state.available).toBe(state.kind === 'bwrap');
    }
    expect(state.description.length).toBeGreaterThan(10);
  });

  it('adds the project access and network setting to the per-call line only when sandboxed', () => {
    const on = { kind: 'bwrap', available: true, description: 'bubblewrap: x' } as const;
    expect(sandboxForCall(on, false, { kind: 'read-only' }).description).toBe(
      'bubblewrap: x, project read-only, clean environment (read-only command), network off',
    );
    expect(sandboxForCall(on, true, { kind: 'read-write', git: 'protected' }).description).toBe(
      'bubblewrap: x, project read-write, git hooks and settings read-only, network allowed',
    );
    const none = {
      kind: 'none',
      available: false,
      description: 'Not sandboxed: no sandbox on win32.',
    } as const;
    expect(sandboxForCall(none, true, { kind: 'read-only' })).toBe(none);
  });
});
