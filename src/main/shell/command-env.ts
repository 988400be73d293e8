// The environment a command runs with: the person's, minus the secrets Tandem itself holds, plus
// git settings that keep a repository inside the project from running code through git.

/** Variables Tandem reads secrets from; never passed to commands. */
export const TANDEM_SECRET_VARIABLES: readonly string[] = ['TANDEM_API_KEY', 'OPENAI_API_KEY'];

/**
 * Given to git through GIT_CONFIG_COUNT/KEY/VALUE, which count as command-line settings: they win
 * over any repository's own config, and safe.bareRepository is honoured from there. A bare
 * repository embedded in the project (`git -C sub status`) is refused, and no fsmonitor command
 * from a repository's config runs.
 */
export const GIT_SAFETY_SETTINGS: readonly (readonly [string, string])[] = [
  ['safe.bareRepository', 'explicit'],
  ['core.fsmonitor', 'false'],
];

/** Appends the settings after any the person's environment already passes this way. */
export function withGitSettings(
  env: Record<string, string>,
  settings: readonly (readonly [string, string])[] = GIT_SAFETY_SETTINGS,
): Record<string, string> {
  const given = env.GIT_CONFIG_COUNT;
  // git refuses to run with a count that is not a number; start over rather than break git.
  const start = given !== undefined && /^\d+$/.test(given.trim()) ? Number(given.trim()) : 0;
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${start + i}`] = key;
    env[`GIT_CONFIG_VALUE_${start + i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(start + settings.length);
  return env;
}

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
  return withGitSettings(env);
}
