/** The history feature's public surface. */
export { HistoryView } from './HistoryView';
export { ContinueNewButton } from './ContinueNewButton';
export { usePersistedDraft } from './usePersistedDraft';
export { downloadText } from './download';
export { ExportMenu } from './ExportMenu';
