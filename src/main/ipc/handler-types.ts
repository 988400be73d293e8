// The shape main implements: every invoke method of TandemApi as a plain async function.
import type { AppEvent, TandemApi, TandemInvokeMethod } from '../../shared/api';

export type TandemHandlers = {
  readonly [M in TandemInvokeMethod]: (
    ...args: Parameters<TandemApi[M]>
  ) => ReturnType<TandemApi[M]>;
};

export type AppEventListener = (event: AppEvent) => void;
