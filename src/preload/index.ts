// Exposes exactly TandemApi as `window.tandem`: one named function per method, no raw
// ipcRenderer, no Electron objects (the event passed to listeners is stripped).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
  channelFor,
  type AppEvent,
  type TandemApi,
  type TandemInvokeMethod,
} from '../shared/api';

function invoke<M extends TandemInvokeMethod>(
  method: M,
  ...args: Parameters<TandemApi[M]>
): ReturnType<TandemApi[M]> {
  // Main validates the payload and answers with the method's declared result type.
  return ipcRenderer.invoke(channelFor(method), ...args) as ReturnType<TandemApi[M]>;
}

const api: TandemApi = {
  getAppInfo: () => invoke('getAppInfo'),
  ping: (message) => invoke('ping', message),
  chooseFolder: () => invoke('chooseFolder'),
  openFolder: (folder) => invoke('openFolder', folder),
  recentFolders: () => invoke('recentFolders'),
  getProviderStatus: () => invoke('getProviderStatus'),
  startRun: (task) => invoke('startRun', task),
  stopRun: (runId) => invoke('stopRun', runId),
  stopCall: (callId) => invoke('stopCall', callId),
  compactSession: () => invoke('compactSession'),
  answerApproval: (requestId, argsHash, answer) =>
    invoke('answerApproval', requestId, argsHash, answer),
  answerEdited: (requestId, argsHash, edited) =>
    invoke('answerEdited', requestId, argsHash, edited),
  previewAlwaysRule: (requestId) => invoke('previewAlwaysRule', requestId),
  sendTerminalInput: (callId, data) => invoke('sendTerminalInput', callId, data),
  revertCall: (callId) => invoke('revertCall', callId),
  revertRun: (runId) => invoke('revertRun', runId),
  previewRevertRun: (runId) => invoke('previewRevertRun', runId),
  listSessions: () => invoke('listSessions'),
  openSession: (sessionId) => invoke('openSession', sessionId),
  newSession: () => invoke('newSession'),
  renameSession: (sessionId, title) => invoke('renameSession', sessionId, title),
  deleteSession: (sessionId) => invoke('deleteSession', sessionId),
  sessionChanges: () => invoke('sessionChanges'),
  revertFiles: (paths) => invoke('revertFiles', paths),
  getSettings: () => invoke('getSettings'),
  setProviderSettings: (settings) => invoke('setProviderSettings', settings),
  setApiKey: (key) => invoke('setApiKey', key),
  clearApiKey: () => invoke('clearApiKey'),
  setProviderTimeouts: (timeouts) => invoke('setProviderTimeouts', timeouts),
  setModelSettings: (model, settings) => invoke('setModelSettings', model, settings),
  listModels: () => invoke('listModels'),
  testConnection: () => invoke('testConnection'),
  setMode: (mode) => invoke('setMode', mode),
  getPermissions: () => invoke('getPermissions'),
  setNetwork: (setting) => invoke('setNetwork', setting),
  deleteRule: (ruleId) => invoke('deleteRule', ruleId),
  revokeGrant: (grantId) => invoke('revokeGrant', grantId),
  getMcpOverview: () => invoke('getMcpOverview'),
  addMcpServers: (json) => invoke('addMcpServers', json),
  removeMcpServer: (name) => invoke('removeMcpServer', name),
  setMcpServerChoices: (source, name, choices) =>
    invoke('setMcpServerChoices', source, name, choices),
  acceptProjectMcp: (hash) => invoke('acceptProjectMcp', hash),
  revokeProjectMcp: () => invoke('revokeProjectMcp'),
  restartMcpServer: (name) => invoke('restartMcpServer', name),
  allowMcpServer: (name, scope) => invoke('allowMcpServer', name, scope),
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, appEvent: AppEvent): void => listener(appEvent);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('tandem', api);
