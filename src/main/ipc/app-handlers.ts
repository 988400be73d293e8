// App-level methods: identity, liveness, provider status.
import type { AppInfo, ProviderStatus } from '../../shared/api';
import type { SandboxState } from '../../shared/tool-types';
import type { TandemHandlers } from './handler-types';

export interface AppHandlerDeps {
  readonly name: string;
  readonly version: string;
  readonly platform: string;
  readonly sandboxState: () => SandboxState | Promise<SandboxState>;
  /** Reads the provider settings; must report only whether a key exists, never the key. */
  readonly providerStatus: () => ProviderStatus | Promise<ProviderStatus>;
}

export function createAppHandlers(
  deps: AppHandlerDeps,
): Pick<TandemHandlers, 'getAppInfo' | 'ping' | 'getProviderStatus'> {
  return {
    async getAppInfo(): Promise<AppInfo> {
      return {
        name: deps.name,
        version: deps.version,
        platform: deps.platform,
        sandbox: await deps.sandboxState(),
      };
    },
    async ping(message) {
      return `pong: ${message}`;
    },
    async getProviderStatus() {
      const status = await deps.providerStatus();
      // Copy field by field so nothing else a settings object carries can leak to the window.
      return {
        baseUrl: status.baseUrl,
        model: status.model,
        hasApiKey: status.hasApiKey === true,
        needsApiKey: status.needsApiKey === true,
      };
    },
  };
}
