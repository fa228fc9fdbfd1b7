import { createBridge } from './bridge';

/** The one bridge of this window. */
export const bridge = createBridge();
export { BridgeError } from './bridge';
