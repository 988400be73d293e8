// Finds out once whether commands can be sandboxed here, by actually trying.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { SandboxState } from '../../shared/tool-types';
import { describeAccess } from './sandbox-access';
import { BWRAP_BASE_ARGS, BWRAP_ISOLATION_ARGS } from './sandbox-launcher';
import type { ProjectAccess } from './sandbox-launcher';

// What each call may do to the project is added per call (sandboxForCall).
const BWRAP_DESCRIPTION =
  'bubblewrap: system read-only, private /tmp, home hidden, no root privileges';
const SANDBOX_EXEC_DESCRIPTION = 'sandbox-exec: system read-only, private temp folder, home hidden';

function succeeds(file: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: 10_000 }, (error) => resolve(!error));
  });
}

async function probe(): Promise<SandboxState> {
  switch (process.platform) {
    case 'linux': {
      const works = await succeeds('bwrap', [
        ...BWRAP_BASE_ARGS,
        '--unshare-net',
        ...BWRAP_ISOLATION_ARGS,
        'true',
      ]);
      return works
        ? { kind: 'bwrap', available: true, description: BWRAP_DESCRIPTION }
        : {
            kind: 'none',
            available: false,
            description:
              'Not sandboxed: bubblewrap (bwrap) is missing or cannot create namespaces here. Commands run with your full permissions.',
          };
    }
    case 'darwin': {
      const works =
        existsSync('/usr/bin/sandbox-exec') &&
        (await succeeds('/usr/bin/sandbox-exec', [
          '-p',
          '(version 1)(allow default)',
          '/usr/bin/true',
        ]));
      return works
        ? { kind: 'sandbox-exec', available: true, description: SANDBOX_EXEC_DESCRIPTION }
        : {
            kind: 'none',
            available: false,
            description:
              'Not sandboxed: sandbox-exec did not work. Commands run with your full permissions.',
          };
    }
    default:
      return {
        kind: 'none',
        available: false,
        description: `Not sandboxed: no sandbox on ${process.platform}. Commands run with your full permissions.`,
      };
  }
}

let cached: Promise<SandboxState> | undefined;

/** Probed once per process and cached. */
export function probeSandbox(): Promise<SandboxState> {
  cached ??= probe();
  return cached;
}

/** The state line for one call, with what it may write and its network setting. */
export function sandboxForCall(
  state: SandboxState,
  allowNetwork: boolean,
  access: ProjectAccess,
): SandboxState {
  if (!state.available) return state;
  return {
    ...state,
    description: `${state.description}, ${describeAccess(access)}, network ${allowNetwork ? 'allowed' : 'off'}`,
  };
}
