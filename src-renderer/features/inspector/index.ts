/** The protocol inspector's public surface. */
export { InspectorHost } from './InspectorDialog';
export { InspectorButton } from './InspectorButton';
export { openInspector } from './inspectorState';
