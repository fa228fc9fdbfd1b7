import { contextBridge, ipcRenderer } from 'electron';
import { eventNames, requestNames, type EventName } from '../../src-shared/ipc/contract';
import { exposedBridge, type ExposedBridge } from './bridgeShape';

/**
 * Exposes exactly the contract: one function per request name and a listener per event
 * name, nothing else (no generic `send(channel, …)`).
 */
contextBridge.exposeInMainWorld(
  'acpDesktop',
  exposedBridge(
    requestNames,
    eventNames,
    (name, input) => ipcRenderer.invoke(`req:${name}`, input),
    (name: EventName, listener) => {
      const handler = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(`evt:${name}`, handler);
      return () => ipcRenderer.removeListener(`evt:${name}`, handler);
    },
    // Commands main may send before the renderer listens (a deep link that launched the app).
    ['ui.command'],
  ) satisfies ExposedBridge,
);
