import type { Decision, PermissionMode, ToolEffect } from '../../shared/tool-types';
import type { ToolTarget } from '../tools/tool';

export const read = (path: string): ToolTarget => ({ kind: 'path', path, access: 'read' });
export const write = (path: string): ToolTarget => ({ kind: 'path', path, access: 'write' });
export const cmd = (command: string): ToolTarget => ({ kind: 'command', command });

export type ModeEffectRow = {
  what: string;
  toolName: string;
  effect: ToolEffect;
  target: ToolTarget;
  expect: Record<PermissionMode, Decision>;
};

// Mode × effect: what each mode does with each kind of call (sandbox available).
export const MODE_EFFECT_TABLE: readonly ModeEffectRow[] = [
  {
    what: 'read inside',
    toolName: 'read_file',
    effect: 'read',
    target: read('a.txt'),
    expect: { ask: 'run', 'auto-edit': 'run', 'read-only': 'run', autonomous: 'run' },
  },
  {
    what: 'read outside by ..',
    toolName: 'read_file',
    effect: 'read',
    target: read('../proj-evil/secret'),
    expect: { ask: 'refuse', 'auto-edit': 'refuse', 'read-only': 'refuse', autonomous: 'refuse' },
  },
  {
    what: 'read through symlink out',
    toolName: 'read_file',
    effect: 'read',
    target: read('link-out'),
    expect: { ask: 'refuse', 'auto-edit': 'refuse', 'read-only': 'refuse', autonomous: 'refuse' },
  },
  {
    what: 'write inside',
    toolName: 'write_file',
    effect: 'write',
    target: write('b.txt'),
    expect: { ask: 'ask', 'auto-edit': 'run', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: 'write into .git',
    toolName: 'write_file',
    effect: 'write',
    target: write('.git/config'),
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'ask' },
  },
  {
    what: 'write outside',
    toolName: 'write_file',
    effect: 'write',
    target: write('/etc/passwd'),
    expect: { ask: 'refuse', 'auto-edit': 'refuse', 'read-only': 'refuse', autonomous: 'refuse' },
  },
  {
    what: 'read-only command',
    toolName: 'shell',
    effect: 'exec',
    target: cmd('git status && ls -la'),
    expect: { ask: 'run', 'auto-edit': 'run', 'read-only': 'run', autonomous: 'run' },
  },
  {
    what: 'command that changes things',
    toolName: 'shell',
    effect: 'exec',
    target: cmd('npm test'),
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: 'command reading outside',
    toolName: 'shell',
    effect: 'exec',
    target: cmd('cat /etc/passwd'),
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: 'network fetch',
    toolName: 'fetch_url',
    effect: 'network',
    target: { kind: 'url', url: 'https://example.com/' },
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'ask' },
  },
  {
    what: 'MCP tool',
    toolName: 'mcp__github__create_issue',
    effect: 'exec',
    target: { kind: 'none' },
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'ask' },
  },
  {
    what: 'MCP tool declaring read',
    toolName: 'mcp__fs__read',
    effect: 'read',
    target: { kind: 'none' },
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'ask' },
  },
  {
    what: 'built-in read without target',
    toolName: 'list_dir',
    effect: 'read',
    target: { kind: 'none' },
    expect: { ask: 'run', 'auto-edit': 'run', 'read-only': 'run', autonomous: 'run' },
  },
  {
    what: 'exec tool without target',
    toolName: 'odd_exec',
    effect: 'exec',
    target: { kind: 'none' },
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: 'exec tool naming a path to read',
    toolName: 'odd_exec',
    effect: 'exec',
    target: read('a.txt'),
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
  {
    what: 'write tool without target',
    toolName: 'note',
    effect: 'write',
    target: { kind: 'none' },
    expect: { ask: 'ask', 'auto-edit': 'ask', 'read-only': 'refuse', autonomous: 'run' },
  },
];
