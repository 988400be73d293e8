// Fan-out of AppEvents from main to whoever shows them (the window, the e2e bridge).
import type { AppEvent } from '../../shared/api';
import type { AppEventListener } from './handler-types';

export interface AppEventHub {
  emit(event: AppEvent): void;
  subscribe(listener: AppEventListener): () => void;
}

export function createAppEventHub(): AppEventHub {
  const listeners = new Set<AppEventListener>();
  return {
    emit(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch {
          // One broken consumer (a closed window) must not stop the others.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
