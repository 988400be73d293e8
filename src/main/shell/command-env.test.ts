import { describe, expect, it } from 'vitest';
import {
  FALLBACK_PATH,
  GIT_READ_ONLY_SETTINGS,
  REFUSED_DIFF_PROGRAM,
  commandEnv,
  forgetSecretVariables,
  withGitSettings,
  withoutSecrets,
} from './command-env';

describe('withGitSettings', () => {
  it.each([
    ['none given', {}, 0],
    ['two given', { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'a.b', GIT_CONFIG_VALUE_0: '1' }, 2],
    ['a count git would refuse', { GIT_CONFIG_COUNT: 'lots' }, 0],
  ])('appends after the settings already passed (%s)', (_, given, start) => {
    const env = withGitSettings({ ...given });
    expect(env.GIT_CONFIG_COUNT).toBe(String(start + 2));
    expect(env[`GIT_CONFIG_KEY_${start}`]).toBe('safe.bareRepository');
    expect(env[`GIT_CONFIG_VALUE_${start}`]).toBe('explicit');
    expect(env[`GIT_CONFIG_KEY_${start + 1}`]).toBe('core.fsmonitor');
    expect(env[`GIT_CONFIG_VALUE_${start + 1}`]).toBe('false');
    if (start > 0) expect(env.GIT_CONFIG_KEY_0).toBe('a.b');
  });

  it('is part of every command environment', () => {
    const env = commandEnv({ PATH: '/usr/bin', OPENAI_API_KEY: 'x' });
    expect(env.GIT_CONFIG_KEY_0).toBe('safe.bareRepository');
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });
});

/** The settings an environment passes to git, as key → value. */
function gitSettings(env: Record<string, string>): Map<string, string> {
  const settings = new Map<string, string>();
  for (let i = 0; i < Number(env.GIT_CONFIG_COUNT); i++)
    settings.set(env[`GIT_CONFIG_KEY_${i}`] ?? '', env[`GIT_CONFIG_VALUE_${i}`] ?? '');
  return settings;
}

describe('commandEnv', () => {
  it.each([
    ['a leading colon', ':/usr/bin:/bin', '/usr/bin:/bin'],
    ['a trailing colon', '/usr/bin:/bin:', '/usr/bin:/bin'],
    ['an empty entry in the middle', '/usr/bin::/bin', '/usr/bin:/bin'],
    ['dot and relative folders', '.:/usr/bin:node_modules/.bin:./bin:~/bin:/bin', '/usr/bin:/bin'],
    ['nothing usable', '.::bin', FALLBACK_PATH],
    ['no PATH at all', undefined, FALLBACK_PATH],
    ['only absolute entries', '/opt/x/bin:/usr/bin', '/opt/x/bin:/usr/bin'],
  ])('keeps only absolute PATH entries (%s)', (_, given, expected) => {
    expect(commandEnv({ PATH: given }).PATH).toBe(expected);
  });

  it('adds the strict git settings and variables only for read-only commands', () => {
    const approved = commandEnv({ PATH: '/usr/bin' });
    expect(approved.GIT_NO_LAZY_FETCH).toBeUndefined();
    expect(approved.GIT_TERMINAL_PROMPT).toBeUndefined();
    expect([...gitSettings(approved).keys()]).toEqual(['safe.bareRepository', 'core.fsmonitor']);

    const readOnly = commandEnv({ PATH: '/usr/bin' }, [], {
      kind: 'read-only',
      refusedKeys: ['diff.external', 'diff.Tool.command'],
    });
    expect(readOnly.GIT_NO_LAZY_FETCH).toBe('1');
    expect(readOnly.GIT_TERMINAL_PROMPT).toBe('0');
    const settings = gitSettings(readOnly);
    expect(settings.get('safe.bareRepository')).toBe('explicit');
    for (const [key, value] of GIT_READ_ONLY_SETTINGS) expect(settings.get(key)).toBe(value);
    expect(settings.get('protocol.allow')).toBe('never');
    expect(settings.get('diff.external')).toBe(REFUSED_DIFF_PROGRAM);
    expect(settings.get('diff.Tool.command')).toBe(REFUSED_DIFF_PROGRAM);
  });
});

describe('withoutSecrets', () => {
  const KEY = 'sk-proj-Zx81kQw0pL3v';
  const base = {
    PATH: '/usr/bin',
    OPENAI_API_KEY: 'a',
    TANDEM_API_KEY: 'b',
    MYKEY: KEY,
    COPIED: `Bearer ${KEY}`,
    SHORT: 'no-key',
    HOME: '/home/p',
  };

  it.each([
    [
      'only the variables Tandem reads keys from',
      [],
      [],
      ['PATH', 'MYKEY', 'COPIED', 'SHORT', 'HOME'],
    ],
    ['and the variable --api-key-env named', ['MYKEY'], [], ['PATH', 'COPIED', 'SHORT', 'HOME']],
    ['and every variable holding the key', ['MYKEY'], [KEY], ['PATH', 'SHORT', 'HOME']],
    // A local server's placeholder key is too short to look for: it would knock out PATH et al.
    [
      'but not a placeholder value',
      [],
      ['no-key', 'x'],
      ['PATH', 'MYKEY', 'COPIED', 'SHORT', 'HOME'],
    ],
  ])('removes %s', (_, names, values, kept) => {
    expect(Object.keys(withoutSecrets(base, names, values))).toEqual(kept);
    expect(Object.keys(commandEnv(base, names, undefined, values))).toEqual(
      expect.arrayContaining(kept),
    );
  });

  it('forgets them from a process environment in place', () => {
    const env: NodeJS.ProcessEnv = { ...base };
    forgetSecretVariables(env, ['MYKEY'], [KEY]);
    expect(env).toEqual({ PATH: '/usr/bin', SHORT: 'no-key', HOME: '/home/p' });
  });
});
