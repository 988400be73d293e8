// The policy's real collaborators: the shell classifier and the path guard, exactly as they run.
import { classifyCommandLazily } from '../shell/lazy-classifier';
import { guardPath, isInsideGitDir } from '../workspace/path-guard';
import type { PolicyDeps } from './policy-deps';

export const realPolicyDeps: PolicyDeps = {
  classifyCommand: classifyCommandLazily,
  guardPath,
  isInsideGitDir,
};
