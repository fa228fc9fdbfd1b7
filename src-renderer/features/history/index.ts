/** The history feature's public surface (issue 6). */
export { HistoryView } from './HistoryView';
export { ContinueNewButton } from './ContinueNewButton';
export { usePersistedDraft } from './usePersistedDraft';
export { downloadText } from './download';
export { ExportMenu } from './ExportMenu';
