// What the policy needs from the shell classifier and the path guard. The real ones are wired in
// real-policy-deps.ts; this seam only keeps the policy file free of their imports.
import type { CommandVerdict } from '../../shared/tool-types';

export type CommandClassificationView = CommandVerdict;

export type GuardView =
  | { readonly ok: true; readonly path: string; readonly relative: string }
  | { readonly ok: false; readonly reason: string };

export interface PolicyDeps {
  classifyCommand(
    command: string,
    folder: string,
    options?: { readonly untouchable?: readonly string[] },
  ): Promise<CommandClassificationView>;
  guardPath(
    folder: string,
    requested: string,
    access: 'read' | 'write',
    options?: { readonly untouchable?: readonly string[] },
  ): Promise<GuardView>;
  isInsideGitDir(relative: string): boolean;
}
