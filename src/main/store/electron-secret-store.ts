// The app's SecretStore: the API key encrypted with Electron's safeStorage in userData. Where the
// OS offers no real encryption (safeStorage unavailable, or Linux's 'basic_text' fallback, which
// is a hard-coded password), the key is NOT written at all: it stays in memory for this run.
import { join } from 'node:path';
import { app, safeStorage } from 'electron';
import { EncryptedFileSecretStore } from './encrypted-file-secret-store';
import { MemorySecretStore, type SecretStore } from './secret-store';

const API_KEY_FILE = 'provider-api-key.bin';

/** Call after app 'ready': before it, safeStorage cannot tell what the OS offers. */
export function createElectronSecretStore(): SecretStore {
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null;
  const available = safeStorage.isEncryptionAvailable() && backend !== 'basic_text';
  if (!available) {
    const why =
      backend === 'basic_text'
        ? 'no keyring (GNOME Keyring, KWallet) was found, so Tandem cannot encrypt the key on disk'
        : 'this system offers Tandem no encryption for stored secrets';
    return new MemorySecretStore(
      `Not saved to disk: ${why}. The key is kept in memory for this run only; enter it again after a restart.`,
    );
  }
  const where =
    process.platform === 'darwin'
      ? 'the macOS Keychain'
      : process.platform === 'win32'
        ? 'Windows DPAPI'
        : `your keyring (${backend ?? 'unknown'})`;
  return new EncryptedFileSecretStore(
    join(app.getPath('userData'), API_KEY_FILE),
    {
      encrypt: (plain) => safeStorage.encryptStringAsync(plain),
      decrypt: async (sealed) => (await safeStorage.decryptStringAsync(sealed)).result,
    },
    `Saved encrypted on this computer with ${where}.`,
  );
}
