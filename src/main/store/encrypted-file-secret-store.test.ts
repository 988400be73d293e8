import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore, type Encryptor } from './encrypted-file-secret-store';
import { MEMORY_ONLY_NOTE, MemorySecretStore } from './secret-store';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-secret-'));
  file = join(dir, 'key.bin');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A real cipher (AES-256-GCM) standing in for the OS keychain that safeStorage uses. */
function aesEncryptor(secret = randomBytes(32)): Encryptor {
  return {
    async encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    async decrypt(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', secret, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString();
    },
  };
}

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';

describe('EncryptedFileSecretStore', () => {
  it('stores the key encrypted, owner-only, and reads it back after a restart', async () => {
    const encryptor = aesEncryptor();
    const store = new EncryptedFileSecretStore(file, encryptor, 'encrypted');
    await expect(store.get()).resolves.toBeUndefined();
    await store.set(KEY);
    const bytes = await readFile(file);
    expect(bytes.toString('latin1')).not.toContain(KEY);
    expect(bytes.toString('latin1')).not.toContain('sk-proj');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['key.bin']);

    const restarted = new EncryptedFileSecretStore(file, encryptor, 'encrypted');
    await expect(restarted.get()).resolves.toBe(KEY);
    expect(restarted.describe()).toEqual({ persistent: true, note: 'encrypted' });
  });

  it('clear removes the file', async () => {
    const store = new EncryptedFileSecretStore(file, aesEncryptor(), 'n');
    await store.set(KEY);
    await store.clear();
    await expect(store.get()).resolves.toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
    await store.clear(); // clearing twice is fine
  });

  it('a key that cannot be decrypted (other machine, damaged file) is a clear error', async () => {
    await writeFile(file, Buffer.from('garbage that is not a sealed key'));
    const store = new EncryptedFileSecretStore(file, aesEncryptor(), 'n');
    await expect(store.get()).rejects.toThrow(/could not be decrypted.*enter the key again/);
  });

  it('refuses an empty key', async () => {
    const store = new EncryptedFileSecretStore(file, aesEncryptor(), 'n');
    await expect(store.set('')).rejects.toThrow('The API key is empty.');
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('MemorySecretStore', () => {
  it('keeps the key for this process only and says so', async () => {
    const store = new MemorySecretStore();
    await store.set(KEY);
    await expect(store.get()).resolves.toBe(KEY);
    await expect(new MemorySecretStore().get()).resolves.toBeUndefined();
    expect(store.describe()).toEqual({ persistent: false, note: MEMORY_ONLY_NOTE });
    await store.clear();
    await expect(store.get()).resolves.toBeUndefined();
  });
});
