/// <reference types="vite/client" />

interface Window {
  /** Set by the Electron preload; absent in the browser host. */
  acpDesktop?: {
    requests: Record<string, (input: unknown) => Promise<unknown>>;
    on: (name: string, listener: (payload: unknown) => void) => () => void;
  };
}
