// Messages between the test page's `window.tandem` and the Node bridge, one JSON object each.
import type { AppEvent } from '../../src/shared/api';

export interface BridgeCall {
  readonly id: number;
  readonly method: string;
  readonly args: unknown;
}

export type BridgeReply =
  | { readonly kind: 'result'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly kind: 'result'; readonly id: number; readonly ok: false; readonly error: string }
  | { readonly kind: 'event'; readonly event: AppEvent };

export function parseBridgeCall(text: string): BridgeCall | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { id, method, args } = value as Record<string, unknown>;
  if (typeof id !== 'number' || typeof method !== 'string') return null;
  return { id, method, args };
}
