/// <reference types="vite/client" />
// The one door to main, provided by the preload (or by the e2e test bridge).
import type { TandemApi } from '../../shared/api';

declare global {
  interface Window {
    readonly tandem: TandemApi;
  }
}

export {};
