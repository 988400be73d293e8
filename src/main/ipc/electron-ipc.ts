// The Electron binding of the IPC layer: one ipcMain.handle per TandemApi method, each call
// checked to come from our own window before it reaches the validated dispatcher.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { IPC_EVENT_CHANNEL, TANDEM_INVOKE_METHODS, channelFor } from '../../shared/api';
import type { TandemBackend } from './create-handlers';
import { isTrustedSender, type TrustedWindow } from './sender-check';
import { createValidatedDispatcher } from './validated-handlers';

export interface ElectronIpcOptions {
  readonly backend: TandemBackend;
  /** The window we trust right now (null before it exists or after it closed). */
  readonly trusted: () => { readonly webContents: WebContents; readonly appUrl: string } | null;
}

const UNTRUSTED_SENDER_MESSAGE = "Refused: this request did not come from Tandem's window.";

export function bindElectronIpc(options: ElectronIpcOptions): () => void {
  const dispatch = createValidatedDispatcher(options.backend.handlers);

  for (const method of TANDEM_INVOKE_METHODS) {
    ipcMain.handle(channelFor(method), (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      const target = options.trusted();
      const trusted: TrustedWindow | null = target
        ? { webContentsId: target.webContents.id, appUrl: target.appUrl }
        : null;
      const frame = event.senderFrame;
      const facts = {
        webContentsId: event.sender.id,
        frameUrl: frame ? frame.url : null,
        isMainFrame: frame ? frame.parent === null : false,
      };
      if (!isTrustedSender(facts, trusted)) throw new Error(UNTRUSTED_SENDER_MESSAGE);
      return dispatch(method, args);
    });
  }

  const unsubscribe = options.backend.onEvent((appEvent) => {
    const target = options.trusted();
    if (target && !target.webContents.isDestroyed()) {
      target.webContents.send(IPC_EVENT_CHANNEL, appEvent);
    }
  });

  return () => {
    unsubscribe();
    for (const method of TANDEM_INVOKE_METHODS) ipcMain.removeHandler(channelFor(method));
  };
}
