// The one line `tandem run` starts with: which folder, which model where, which mode, and whether
// commands are sandboxed — what a person needs to know before the first card appears.
import { MODE_LABELS } from '../shared/mode-labels';
import { effectiveMode } from '../main/permissions/modes';
import type { PermissionMode, SandboxState } from '../shared/tool-types';
import type { CliStyle } from './cli-style';

export interface RunHeaderInfo {
  readonly folder: string;
  readonly home?: string;
  readonly model: string;
  readonly baseUrl: string;
  readonly mode: PermissionMode;
  readonly sandbox: SandboxState;
}

export function runHeader(info: RunHeaderInfo, style: CliStyle): string {
  const { paint, text } = style;
  const folder =
    info.home && (info.folder === info.home || info.folder.startsWith(`${info.home}/`))
      ? `~${info.folder.slice(info.home.length)}`
      : info.folder;
  // Autonomous without a sandbox asks as Ask does (modes.ts): the header says what applies.
  const applied = effectiveMode(info.mode, info.sandbox).mode;
  const mode =
    applied === info.mode
      ? MODE_LABELS[info.mode]
      : `${MODE_LABELS[info.mode]} (asks as ${MODE_LABELS[applied]}: no sandbox)`;
  const parts = [
    paint.bold('tandem'),
    text.line(folder),
    `${text.line(info.model)} ${paint.dim('at')} ${text.line(hostOf(info.baseUrl))}`,
    info.mode === 'autonomous' ? paint.yellow(mode) : mode,
    sandboxLabel(info.sandbox, style),
  ];
  return `${parts.join(paint.dim(' · '))}\n`;
}

function sandboxLabel(sandbox: SandboxState, { paint }: CliStyle): string {
  switch (sandbox.kind) {
    case 'bwrap':
      return sandbox.available ? 'sandbox: bubblewrap' : paint.yellow('not sandboxed');
    case 'sandbox-exec':
      return sandbox.available ? 'sandbox: sandbox-exec' : paint.yellow('not sandboxed');
    case 'none':
      return paint.yellow('not sandboxed');
  }
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
