import type { StateCreator } from 'zustand';
import type { AppSlice, Store } from '../types';

export const createAppSlice: StateCreator<Store, [], [], AppSlice> = (set) => ({
  connection: 'connecting',
  app: null,
  sessions: {},
  toast: null,
  showToast: (message) => set({ toast: message }),
});
