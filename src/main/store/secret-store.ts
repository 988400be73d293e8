// Where the provider's API key is kept. Write-only from the window's side: the key goes in through
// setApiKey and out only to the provider client in main; no handler ever returns it.

export interface KeyStorageDescription {
  /** True when the key survives a restart (encrypted on disk). */
  readonly persistent: boolean;
  /** One sentence for the person: where the key is and how it is protected. */
  readonly note: string;
}

export interface SecretStore {
  get(): Promise<string | undefined>;
  set(key: string): Promise<void>;
  clear(): Promise<void>;
  describe(): KeyStorageDescription;
}

export const MEMORY_ONLY_NOTE =
  'The key is kept in memory for this run only; you will enter it again after a restart.';

/** Keeps the key for the life of the process (tests, the e2e bridge, and machines without OS encryption). */
export class MemorySecretStore implements SecretStore {
  private key: string | undefined;

  constructor(private readonly note: string = MEMORY_ONLY_NOTE) {}

  async get(): Promise<string | undefined> {
    return this.key;
  }

  async set(key: string): Promise<void> {
    if (key === '') throw new Error('The API key is empty.');
    this.key = key;
  }

  async clear(): Promise<void> {
    this.key = undefined;
  }

  describe(): KeyStorageDescription {
    return { persistent: false, note: this.note };
  }
}
