import { bridge } from '../../bridge';
import { run } from '../../store';
import type { RequestInput } from '../../../src-shared/ipc/contract';

/** Adds a remote agent (its secret header values go to main's secret store, never to settings.json). */
export const addRemoteAgent = (input: RequestInput<'agent.addRemote'>) => run(bridge.request('agent.addRemote', input));
