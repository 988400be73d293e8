// Decides, from how a command was allowed and the verdict it was allowed on, what text runs and how
// much of the project its sandbox may write. A command allowed as read-only runs exactly as judged
// (the command line rebuilt from its words) with a read-only project, a clean environment and no
// host sockets, so a hole in the classifier still cannot write. A rule or grant covers judged
// words, so those run as judged too, with a writable project. What the person approved, or the
// mode let through, runs as its text; .git stays read-only unless the command runs git.
import path from 'node:path';
import type { CommandVerdict, RunBasis } from '../../shared/tool-types';
import type { ProjectAccess } from './sandbox-launcher';

export type CommandRun =
  | {
      readonly ok: true;
      /** The bash command line that runs. */
      readonly text: string;
      readonly access: ProjectAccess;
      /** Runs as judged and unapproved: clean environment, git that runs nothing configured. */
      readonly readOnly: boolean;
      /** May have the network the project allows. A read-only command never does: no program of
       * the read-only set needs it, so its output cannot carry outside content either. */
      readonly network: boolean;
    }
  | { readonly ok: false; readonly reason: string };

function runsGit(verdict: CommandVerdict): boolean {
  // An unparsed command has no parts to look at. It ran only because the person approved it, so
  // it gets the access a git command gets (the protected entries stay read-only regardless).
  if (!verdict.parsed) return true;
  return verdict.parts.some((part) => {
    const program = part.argv[0];
    return program !== undefined && path.basename(program) === 'git';
  });
}

function writable(verdict: CommandVerdict): ProjectAccess {
  return { kind: 'read-write', git: runsGit(verdict) ? 'protected' : 'read-only' };
}

export function planCommandRun(basis: RunBasis, verdict: CommandVerdict): CommandRun {
  switch (basis) {
    case 'read-only':
      if (!verdict.safe || verdict.canonical === undefined) {
        return {
          ok: false,
          reason: 'it was allowed as a read-only command, but it is not judged read-only now',
        };
      }
      return {
        ok: true,
        text: verdict.canonical,
        access: { kind: 'read-only' },
        readOnly: true,
        network: false,
      };
    case 'rule':
    case 'grant':
      if (verdict.canonical === undefined) {
        return {
          ok: false,
          reason: 'a rule allowed it, but it cannot be run from its judged words',
        };
      }
      return {
        ok: true,
        text: verdict.canonical,
        access: writable(verdict),
        readOnly: false,
        network: true,
      };
    case 'person':
    case 'mode':
      return {
        ok: true,
        text: verdict.command,
        access: writable(verdict),
        readOnly: false,
        network: true,
      };
  }
}

/** How a command runs when no gate said (a tool used directly): read-only if judged so. */
export function defaultBasis(verdict: CommandVerdict): RunBasis {
  return verdict.safe ? 'read-only' : 'person';
}

/** Person-readable; part of the sandbox line on the approval card and in the result. */
export function describeAccess(access: ProjectAccess): string {
  switch (access.kind) {
    case 'read-only':
      return 'project read-only, clean environment (read-only command)';
    case 'read-write':
      switch (access.git) {
        case 'read-only':
          return 'project read-write, .git read-only (no git command)';
        case 'protected':
          return 'project read-write, git hooks and settings read-only';
      }
  }
}
