// A SecretStore that keeps the key encrypted in one file. The cipher is injected: the app passes
// Electron's safeStorage (OS keychain / libsecret / DPAPI); this file stays plain Node.
import { readFile, rm } from 'node:fs/promises';
import type { KeyStorageDescription, SecretStore } from './secret-store';
import { writePrivateFileAtomic } from './private-files';

export interface Encryptor {
  encrypt(plain: string): Promise<Buffer>;
  decrypt(sealed: Buffer): Promise<string>;
}

export class EncryptedFileSecretStore implements SecretStore {
  private cached: { key: string | undefined } | undefined;

  constructor(
    private readonly file: string,
    private readonly encryptor: Encryptor,
    private readonly note: string,
  ) {}

  async get(): Promise<string | undefined> {
    if (this.cached) return this.cached.key;
    let sealed: Buffer;
    try {
      sealed = await readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.cached = { key: undefined };
        return undefined;
      }
      throw error;
    }
    let key: string;
    try {
      key = await this.encryptor.decrypt(sealed);
    } catch (error) {
      throw new Error(
        `The stored API key (${this.file}) could not be decrypted (${(error as Error).message}). ` +
          'Remove it in Settings and enter the key again.',
      );
    }
    this.cached = { key };
    return key;
  }

  async set(key: string): Promise<void> {
    if (key === '') throw new Error('The API key is empty.');
    const sealed = await this.encryptor.encrypt(key);
    // Owner-only, written beside and renamed: never a half-written key file.
    await writePrivateFileAtomic(this.file, sealed);
    this.cached = { key };
  }

  async clear(): Promise<void> {
    await rm(this.file, { force: true });
    this.cached = { key: undefined };
  }

  describe(): KeyStorageDescription {
    return { persistent: true, note: this.note };
  }
}
