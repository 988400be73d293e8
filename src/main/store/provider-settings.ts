// Which provider Tandem talks to: base URL, model and preset (the key lives in the SecretStore).
// Plain Node: a JSON file for the e2e bridge, and the CLI's way to read what the window stored
// (the app's electron-store adapter, ./electron-settings-store.ts, writes the same file).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { baseUrlSchema } from '../../shared/ipc-schemas';
import { lazyValue } from '../../shared/lazy-value';
import {
  providerTimeoutsSchema,
  type ProviderTimeoutSettings,
} from '../../shared/provider-timeouts';
import {
  modelSettingsMapSchema,
  type modelSettingsSchema,
  type ModelSettings,
} from '../../shared/model-settings';
import {
  DEFAULT_PRESET_ID,
  PROVIDER_PRESET_IDS,
  presetById,
  type ProviderPresetId,
} from '../../shared/provider-presets';
import { writePrivateFileAtomic } from './private-files';

/**
 * 2 added `timeouts`, 3 `models` (per-model window and prices); older files read as they are
 * (their timeouts are the defaults, no model has settings).
 */
const SETTINGS_VERSION = 3;
const READABLE_VERSIONS = [1, 2, 3] as const;
export const SETTINGS_FILE = 'settings.json';

export interface ProviderSettings {
  readonly baseUrl: string;
  readonly model: string;
  readonly presetId: ProviderPresetId;
  /**
   * Origin (scheme, host, port) the stored API key was entered for. The key is sent only there,
   * so changing the base URL (by the person, or by a compromised window) cannot redirect it.
   */
  readonly keyOrigin?: string;
  /** How long to wait for the provider; absent means the defaults. */
  readonly timeouts?: ProviderTimeoutSettings;
  /** What the person said about particular models (window, prices), by model id. */
  readonly models?: Readonly<Record<string, ModelSettings>>;
}

export interface SettingsStore {
  /** The stored settings, or the defaults when nothing is stored yet. Throws on a corrupt store. */
  load(): Promise<ProviderSettings>;
  save(settings: ProviderSettings): Promise<void>;
}

export const DEFAULT_PROVIDER_SETTINGS: ProviderSettings = {
  baseUrl: presetById(DEFAULT_PRESET_ID).baseUrl,
  model: '',
  presetId: DEFAULT_PRESET_ID,
};

/** Built on first use (lazy-value.ts): only when a settings file is read or written. */
const settingsFileSchema = lazyValue(() => {
  const providerSchema = z
    .object({
      baseUrl: baseUrlSchema(),
      model: z.string().max(300),
      presetId: z.enum(PROVIDER_PRESET_IDS),
      keyOrigin: z.string().max(2000).optional(),
      timeouts: providerTimeoutsSchema().optional(),
      models: modelSettingsMapSchema().optional(),
    })
    .strict();
  return z
    .object({
      version: z.union(READABLE_VERSIONS.map((v) => z.literal(v))),
      provider: providerSchema,
    })
    .strict();
});

export type SettingsFile = z.infer<ReturnType<typeof settingsFileSchema>>;

const NOT_RESET = 'Fix or delete it; Tandem does not reset your settings silently.';

/** Validates a stored value (any source); a newer version or a broken value is a clear error. */
export function parseSettings(raw: unknown, source: string): ProviderSettings {
  const version =
    typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version > SETTINGS_VERSION) {
    throw new Error(
      `${source} was written by a newer Tandem (settings version ${version}; this one reads ${SETTINGS_VERSION}).`,
    );
  }
  const parsed = settingsFileSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new Error(
      `${source} is not a valid settings file${where}: ${issue?.message ?? 'unknown problem'}. ${NOT_RESET}`,
    );
  }
  const { keyOrigin, timeouts, models, ...provider } = parsed.data.provider;
  return {
    ...provider,
    ...(keyOrigin !== undefined ? { keyOrigin } : {}),
    ...(timeouts !== undefined ? { timeouts } : {}),
    ...(models !== undefined ? { models: withoutUndefined(models) } : {}),
  };
}

/** zod's parsed optional fields may hold `undefined`; the settings type has them absent. */
function withoutUndefined(
  models: Record<string, z.infer<ReturnType<typeof modelSettingsSchema>>>,
): Record<string, ModelSettings> {
  return Object.fromEntries(
    Object.entries(models).map(([id, settings]) => [
      id,
      {
        ...(settings.contextTokens !== undefined ? { contextTokens: settings.contextTokens } : {}),
        ...(settings.prices
          ? {
              prices: {
                inputPerMillion: settings.prices.inputPerMillion,
                outputPerMillion: settings.prices.outputPerMillion,
                ...(settings.prices.cachedInputPerMillion !== undefined
                  ? { cachedInputPerMillion: settings.prices.cachedInputPerMillion }
                  : {}),
              },
            }
          : {}),
      },
    ]),
  );
}

/** The origin a key entered for this base URL belongs to. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** The value written to a store: validated, so a bad value never reaches the disk. */
export function settingsFileValue(settings: ProviderSettings): SettingsFile {
  const parsed = settingsFileSchema().safeParse({
    version: SETTINGS_VERSION,
    provider: {
      baseUrl: settings.baseUrl,
      model: settings.model,
      presetId: settings.presetId,
      ...(settings.keyOrigin !== undefined ? { keyOrigin: settings.keyOrigin } : {}),
      ...(settings.timeouts !== undefined ? { timeouts: settings.timeouts } : {}),
      ...(settings.models !== undefined ? { models: settings.models } : {}),
    },
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Settings not saved: ${issue?.message ?? 'invalid value'}.`);
  }
  return parsed.data;
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}

export class JsonFileSettingsStore implements SettingsStore {
  readonly file: string;
  // Saves are serialised so two quick edits cannot interleave their renames.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = join(dataDir, SETTINGS_FILE);
  }

  async load(): Promise<ProviderSettings> {
    await this.queue;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_PROVIDER_SETTINGS;
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new Error(`${this.file} is not valid JSON (${(error as Error).message}). ${NOT_RESET}`);
    }
    // electron-store leaves `{}` when nothing was saved; that is "nothing stored", as in the app.
    if (isEmptyObject(raw)) return DEFAULT_PROVIDER_SETTINGS;
    return parseSettings(raw, this.file);
  }

  save(settings: ProviderSettings): Promise<void> {
    const next = this.queue.then(async () => {
      const value = settingsFileValue(settings);
      // Written beside, then renamed (a crash leaves the old file or the new one), 0600.
      await writePrivateFileAtomic(this.file, JSON.stringify(value, null, 2) + '\n');
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
