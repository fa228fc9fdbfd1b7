import { bridge } from '../../bridge';
import { run } from '../../store';

/** Sets a config option (`select`: a value id; `boolean`: on or off). */
export const setConfigOption = (sessionId: string, configId: string, value: string | boolean) =>
  void run(bridge.request('config.set', { sessionId, configId, value }));
/** Legacy session modes, for agents without config options. */
export const setMode = (sessionId: string, modeId: string) => void run(bridge.request('mode.set', { sessionId, modeId }));
