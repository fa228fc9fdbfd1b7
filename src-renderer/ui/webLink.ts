/**
 * The address a link made from agent text may open, or null. Only absolute http and https
 * addresses: those are what Electron's main process hands to the OS browser, and anything else
 * opened in a new window of the browser host loads the app itself again (an empty `href`, which is
 * what react-markdown leaves of `javascript:` and other unsafe addresses, or a relative path).
 */
export function webLinkTarget(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? href : null;
  } catch {
    return null;
  }
}
