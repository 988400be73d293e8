// Decides, from the classification of exactly the command about to run, how much of the project
// its sandbox may write. A command judged read-only gets a read-only project, so a hole in the
// classifier cannot turn an auto-approved command into one that writes; other commands (which the
// person approved, or autonomous mode let through) may write the project, and .git only if they
// run git.
import path from 'node:path';
import type { CommandClassification } from './command-classifier';
import type { ProjectAccess, SandboxPlan } from './sandbox-launcher';

function runsGit(classification: CommandClassification): boolean {
  // An unparsed command has no parts to look at. It ran only because the person approved it, so
  // it gets the access a git command gets (the protected entries stay read-only regardless).
  if (!classification.parsed) return true;
  return classification.parts.some((part) => {
    const program = part.argv[0];
    return program !== undefined && path.basename(program) === 'git';
  });
}

export function accessForCommand(classification: CommandClassification): ProjectAccess {
  if (classification.safe) return { kind: 'read-only' };
  return { kind: 'read-write', git: runsGit(classification) ? 'protected' : 'read-only' };
}

/**
 * Whether the command gets the network the project allows. A command judged read-only never does:
 * no program of the read-only set needs it, and so its output cannot carry outside content.
 */
export function networkForCommand(
  classification: CommandClassification,
  projectAllows: boolean,
): boolean {
  return projectAllows && !classification.safe;
}

/** The plan for one command: where it runs, what it may write, whether it has network. */
export function sandboxPlanForCommand(
  classification: CommandClassification,
  options: Omit<SandboxPlan, 'access'>,
): SandboxPlan {
  return {
    ...options,
    allowNetwork: networkForCommand(classification, options.allowNetwork),
    access: accessForCommand(classification),
  };
}

/** Person-readable; part of the sandbox line on the approval card and in the result. */
export function describeAccess(access: ProjectAccess): string {
  switch (access.kind) {
    case 'read-only':
      return 'project read-only (read-only command)';
    case 'read-write':
      switch (access.git) {
        case 'read-only':
          return 'project read-write, .git read-only (no git command)';
        case 'protected':
          return 'project read-write, git hooks and settings read-only';
      }
  }
}
