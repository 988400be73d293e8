// The environment a command runs with: the person's, minus the secrets Tandem itself holds, plus
// git settings that keep a repository inside the project from running code through git.

/** Variables Tandem reads secrets from; never passed to commands. */
export const TANDEM_SECRET_VARIABLES: readonly string[] = ['TANDEM_API_KEY', 'OPENAI_API_KEY'];

/**
 * Secret values are looked for only from this length on: a local server's placeholder key ("x",
 * "no-key") would otherwise knock out harmless variables that happen to contain it.
 */
export const MIN_SECRET_VALUE_LENGTH = 8;

/**
 * Removes Tandem's secrets from an environment: the variables it reads keys from, the further
 * `names` (the variable `--api-key-env` named), and any variable whose value contains one of
 * `values` (the key itself, whatever variable it was copied into).
 */
export function withoutSecrets(
  base: Readonly<Record<string, string | undefined>>,
  names: readonly string[] = [],
  values: readonly string[] = [],
): Record<string, string> {
  const drop = new Set([...TANDEM_SECRET_VARIABLES, ...names]);
  const secrets = values.filter((value) => value.length >= MIN_SECRET_VALUE_LENGTH);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || drop.has(name)) continue;
    if (secrets.some((secret) => value.includes(secret))) continue;
    env[name] = value;
  }
  return env;
}

/**
 * Deletes the secret variables from this process's own environment once the key has been read,
 * so no child that inherits it (a git helper, a probe, an MCP server) can ever see them.
 */
export function forgetSecretVariables(
  env: NodeJS.ProcessEnv,
  names: readonly string[] = [],
  values: readonly string[] = [],
): void {
  const kept = withoutSecrets(env, names, values);
  for (const name of Object.keys(env)) if (!(name in kept)) delete env[name];
}

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

/**
 * Stricter settings for a command the classifier judged read-only, which runs without anyone
 * approving it: nothing a repository's config names runs as a pager, signature checker or hook,
 * and git fetches nothing (a partial clone would otherwise fetch missing objects on `git log`).
 * `diff.external` cannot be switched off this way (git runs even an empty value and fails), so
 * it is refused only where a repository sets it; see `GitMode`.
 */
export const GIT_READ_ONLY_SETTINGS: readonly (readonly [string, string])[] = [
  ['core.pager', 'cat'],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['protocol.allow', 'never'],
  // Nested repositories (submodules) have configs of their own: git stays out of them.
  ['submodule.recurse', 'false'],
  ['diff.submodule', 'short'],
  ['status.submoduleSummary', 'false'],
  // `git diff` would otherwise rewrite .git/index to refresh stat information.
  ['diff.autoRefreshIndex', 'false'],
];

export const GIT_READ_ONLY_VARIABLES: Readonly<Record<string, string>> = {
  GIT_NO_LAZY_FETCH: '1',
  GIT_TERMINAL_PROMPT: '0',
  // `git status` would otherwise refresh .git/index: a read-only command writes nothing.
  GIT_OPTIONAL_LOCKS: '0',
  // The person's ~/.gitconfig holds tokens (http.extraHeader, credential helpers, insteadOf URLs)
  // that `git config --get KEY` prints. The sandbox hides the home folder anyway; without one,
  // this keeps it hidden from git too, so the command behaves the same in both.
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs instead of a diff program a repository's config names: says why, and fails. */
export const REFUSED_DIFF_PROGRAM =
  'echo "Tandem did not run the diff program this repository\'s git config names, in a command run without asking; use git diff --no-ext-diff." >&2; false';

/**
 * How git behaves for a command: as the person configured it (they approved the command), or
 * read-only (auto-approved), where `refusedKeys` are diff-program settings (diff.external,
 * diff.<driver>.command) a repository sets, overridden by REFUSED_DIFF_PROGRAM.
 */
export type GitMode =
  | { readonly kind: 'as-configured' }
  | { readonly kind: 'read-only'; readonly refusedKeys: readonly string[] };

export const GIT_AS_CONFIGURED: GitMode = { kind: 'as-configured' };

function gitSettingsFor(mode: GitMode): (readonly [string, string])[] {
  switch (mode.kind) {
    case 'as-configured':
      return [...GIT_SAFETY_SETTINGS];
    case 'read-only':
      return [
        ...GIT_SAFETY_SETTINGS,
        ...GIT_READ_ONLY_SETTINGS,
        ...mode.refusedKeys.map((key) => [key, REFUSED_DIFF_PROGRAM] as const),
      ];
  }
}

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

/** Where commands look when the person's PATH has no usable entry (bash's own default has `.`). */
export const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * PATH without empty or relative entries: an empty one (a leading or trailing `:`, or `::`) means
 * the current folder, as does `.`, so `ls` or `git` would run an executable from the project.
 */
export function absolutePath(value: string | undefined): string {
  const kept = (value ?? '').split(':').filter((entry) => entry.startsWith('/'));
  return kept.length > 0 ? kept.join(':') : FALLBACK_PATH;
}

export function commandEnv(
  base: Readonly<Record<string, string | undefined>>,
  secretNames: readonly string[] = [],
  git: GitMode = GIT_AS_CONFIGURED,
  secretValues: readonly string[] = [],
): Record<string, string> {
  // CDPATH would make `cd dir` land somewhere the classifier did not judge.
  const env = withoutSecrets(base, [...secretNames, 'CDPATH'], secretValues);
  env.PATH = absolutePath(env.PATH);
  // A pager would wait for a key press that no one is there to give.
  env.PAGER = 'cat';
  env.GIT_PAGER = 'cat';
  env.TERM = 'xterm-256color';
  env.COLORTERM ??= 'truecolor';
  if (git.kind === 'read-only') Object.assign(env, GIT_READ_ONLY_VARIABLES);
  return withGitSettings(env, gitSettingsFor(git));
}

/** Variables a command run without asking keeps from the person's environment; nothing else. */
const CLEAN_NAMES: ReadonlySet<string> = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'COLORTERM',
]);

/**
 * The environment of a command no one approved: locale, user and a PATH of absolute folders
 * outside the project; nothing the person's shell exported (exported functions, BASH_ENV,
 * LD_PRELOAD, GIT_*, tokens), so the command behaves as judged and learns no secrets.
 */
export function cleanEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  folder: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && (CLEAN_NAMES.has(name) || name.startsWith('LC_'))) env[name] = value;
  }
  const inside = (entry: string): boolean =>
    entry === folder || entry.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
  env.PATH =
    absolutePath(env.PATH)
      .split(':')
      .filter((entry) => !inside(entry))
      .join(':') || FALLBACK_PATH;
  return env;
}
