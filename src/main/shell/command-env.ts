// The environment a command runs with: the person's, minus the secrets Tandem itself holds.

/** Variables Tandem reads secrets from; never passed to commands. */
export const TANDEM_SECRET_VARIABLES: readonly string[] = ['TANDEM_API_KEY', 'OPENAI_API_KEY'];

export function commandEnv(
  base: Readonly<Record<string, string | undefined>>,
  secretNames: readonly string[] = [],
): Record<string, string> {
  // CDPATH would make `cd dir` land somewhere the classifier did not judge.
  const drop = new Set([...TANDEM_SECRET_VARIABLES, 'CDPATH', ...secretNames]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && !drop.has(name)) env[name] = value;
  }
  // A pager would wait for a key press that no one is there to give.
  env.PAGER = 'cat';
  env.GIT_PAGER = 'cat';
  env.TERM = 'xterm-256color';
  env.COLORTERM ??= 'truecolor';
  return env;
}
