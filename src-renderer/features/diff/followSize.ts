/**
 * Lays a Monaco editor out again whenever its container's size changes, like its own
 * `automaticLayout`, except while the container is out of the document: a hidden tab's view is
 * detached (features/chat/SessionViews.tsx), where Monaco's observer would lay the editor out at
 * 0×0 and render every line again when the tab comes back (issue 23). Returns the stop.
 */
export function followSize(container: HTMLElement, editor: { layout(): void }): () => void {
  const observer = new ResizeObserver(() => {
    // `layout()` measures the container and does nothing when its size has not changed.
    if (container.isConnected) editor.layout();
  });
  observer.observe(container);
  return () => observer.disconnect();
}
