/** The registry feature's public surface: the catalog dialog and how to open it. */
export { RegistryCatalog } from './RegistryCatalog';
export { openCatalog, closeCatalog, loadCatalog } from './actions';
