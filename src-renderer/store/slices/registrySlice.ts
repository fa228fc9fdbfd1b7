import type { StateCreator } from 'zustand';
import type { RegistrySlice, Store } from '../types';

export const createRegistrySlice: StateCreator<Store, [], [], RegistrySlice> = (set) => ({
  catalogOpen: false,
  catalogFocus: null,
  catalog: null,
  catalogRefreshing: false,
  catalogError: null,
  installProgress: {},
  installErrors: {},
  catalogFilter: { query: '', show: 'all', distribution: 'any' },
  confirmUninstall: null,
  setCatalogFilter: (patch) => set((s) => ({ catalogFilter: { ...s.catalogFilter, ...patch } })),
  setConfirmUninstall: (agentId) => set({ confirmUninstall: agentId }),
  setInstallError: (agentId, error) =>
    set((s) => {
      const installErrors = { ...s.installErrors };
      if (error === null) delete installErrors[agentId];
      else installErrors[agentId] = error;
      return { installErrors };
    }),
});
