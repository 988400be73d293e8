// The permission engine as `tandem run` uses it: the project's stored mode and rules, grants for
// this process, the approval broker, and the terminal as the place the person answers.
import type { PermissionMode } from '../shared/tool-types';
import { loadEarlierCalls, previewAlwaysChoices } from '../main/permissions/always-rule-preview';
import { ApprovalBroker } from '../main/permissions/approval-broker';
import { createPermissionGate } from '../main/permissions/create-permission-gate';
import type { PermissionGate } from '../main/permissions/gate';
import { GrantBook } from '../main/permissions/grant-book';
import { JsonFilePermissionsStore } from '../main/permissions/project-permissions-store';
import { realPolicyDeps } from '../main/permissions/real-policy-deps';
import { probeSandbox } from '../main/shell/sandbox-probe';
import type { CliStyle } from './cli-style';
import { createTerminalAsker } from './terminal-asker';

export interface RunPermissionGateOptions {
  /** Real path of the project folder. */
  readonly folder: string;
  readonly dataDir: string;
  /** Overrides the project's stored mode; absent means the stored one (default Ask). */
  readonly mode?: PermissionMode;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdinIsTTY: boolean;
  /** Where cards and warnings go (stderr, so stdout stays clean for --json). */
  readonly write: (text: string) => void;
  /** Waited for before each card is printed and answered (the run's header, see run-command). */
  readonly beforeCard?: () => Promise<void>;
  /** Colour, and how model- and file-controlled text is shown (default: plain, visible escapes). */
  readonly style?: CliStyle;
}

export interface RunPermissionGate {
  readonly gate: PermissionGate;
  readonly broker: ApprovalBroker;
  readonly grants: GrantBook;
  /** Stops reading the terminal once the run is over. */
  close(): void;
}

export function createRunPermissionGate(options: RunPermissionGateOptions): RunPermissionGate {
  const broker = new ApprovalBroker({
    onRefused: (refused) =>
      options.write(
        `tandem: refused an approval answer (${refused.reason}) for request ${refused.requestId}\n`,
      ),
  });
  const grants = new GrantBook();
  const asker = createTerminalAsker({
    get input() {
      return options.stdin;
    },
    interactive: options.stdinIsTTY,
    write: options.write,
    ...(options.beforeCard ? { beforeCard: options.beforeCard } : {}),
    ...(options.style ? { text: options.style.text, paint: options.style.paint } : {}),
    previewAlways: async (request, context) => {
      if (context.rules.length === 0) return null;
      const calls = await loadEarlierCalls(options.dataDir, options.folder, request.requestId);
      return previewAlwaysChoices(context.rules, calls, options.folder, realPolicyDeps);
    },
  });
  const gate = createPermissionGate({
    store: new JsonFilePermissionsStore(options.dataDir),
    grants,
    broker,
    asker,
    sandbox: probeSandbox,
    ...(options.mode ? { mode: options.mode } : {}),
  });
  return { gate, broker, grants, close: () => asker.close() };
}
