// Where the Electron binary is, without require('electron'): that module tries to download
// the binary when it is missing, which must not happen during tests.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

export const ELECTRON_SKIP_REASON =
  'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD); skipped';

export function findElectronBinary(): string | null {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(__filename).resolve('electron/package.json'));
  } catch {
    return null;
  }
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (override) {
    const candidate = join(override, relative || 'electron');
    return existsSync(candidate) ? candidate : null;
  }
  if (!relative) return null;
  const candidate = join(packageDir, 'dist', relative);
  return existsSync(candidate) ? candidate : null;
}
