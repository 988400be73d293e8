// How long Tandem waits for a model provider, in seconds, as the person sets it (Settings, or
// `tandem run` flags): to start answering, between useful pieces of an answer, and in all.
import { z } from 'zod';
import { groupDigits } from './digit-groups';
import { lazyValue } from './lazy-value';

export interface ProviderTimeoutSettings {
  /** From sending a request until the answer starts. */
  readonly connectSeconds: number;
  /** Longest quiet spell once the answer has started (keep-alive messages do not count). */
  readonly idleSeconds: number;
  /** One request from start to end. */
  readonly requestSeconds: number;
}

export interface TimeoutField {
  readonly key: keyof ProviderTimeoutSettings;
  readonly label: string;
  readonly hint: string;
  readonly flag: string;
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/**
 * Node's HTTP client gives up by itself after 300 s without headers or body bytes, so a longer
 * connect or idle limit could never fire: both stop at 300 s.
 */
export const TIMEOUT_FIELDS: readonly TimeoutField[] = [
  {
    key: 'connectSeconds',
    label: 'Connect timeout',
    hint: 'Seconds for the provider to start answering. Raise it for a local model that loads slowly.',
    flag: '--connect-timeout',
    min: 1,
    max: 300,
    default: 60,
  },
  {
    key: 'idleSeconds',
    label: 'Idle timeout',
    hint: 'Seconds an answer may go quiet before Tandem gives up and retries.',
    flag: '--idle-timeout',
    min: 1,
    max: 300,
    default: 120,
  },
  {
    key: 'requestSeconds',
    label: 'Request limit',
    hint: 'Seconds one answer may take in all.',
    flag: '--request-timeout',
    min: 1,
    max: 86_400,
    default: 1_200,
  },
];

export const DEFAULT_TIMEOUT_SETTINGS: ProviderTimeoutSettings = {
  connectSeconds: fieldOf('connectSeconds').default,
  idleSeconds: fieldOf('idleSeconds').default,
  requestSeconds: fieldOf('requestSeconds').default,
};

export function fieldOf(key: keyof ProviderTimeoutSettings): TimeoutField {
  return TIMEOUT_FIELDS.find((field) => field.key === key) as TimeoutField;
}

const seconds = (key: keyof ProviderTimeoutSettings) => {
  const field = fieldOf(key);
  return z
    .number()
    .int(`${field.label} must be a whole number of seconds`)
    .min(field.min, `${field.label} must be at least ${field.min} s`)
    .max(field.max, `${field.label} must be at most ${groupDigits(field.max)} s`);
};

/** Built on first use (lazy-value.ts): a run reads it only from a settings file. */
export const providerTimeoutsSchema = lazyValue(() =>
  z
    .object({
      connectSeconds: seconds('connectSeconds'),
      idleSeconds: seconds('idleSeconds'),
      requestSeconds: seconds('requestSeconds'),
    })
    .strict(),
);
