// The Electron side of `Confirm`: a native message box owned by main, modal to Tandem's window.
// The window's page cannot draw it, read it or press its buttons. Cancel is the default and the
// answer to Escape, so only a deliberate click on the yes button says yes.
import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import type { Confirm } from './setting-confirmation';

export function createElectronConfirm(window: () => BrowserWindow | null): Confirm {
  return async (request) => {
    const options: MessageBoxOptions = {
      type: 'warning',
      title: request.title,
      message: request.message,
      detail: request.detail,
      buttons: [request.confirmLabel, 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    };
    const parent = window();
    const { response } =
      parent && !parent.isDestroyed()
        ? await dialog.showMessageBox(parent, options)
        : await dialog.showMessageBox(options);
    return response === 0;
  };
}
