import { describe, expect, it } from 'vitest';
import { commandEnv, withGitSettings } from './command-env';

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
