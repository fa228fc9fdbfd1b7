/**
 * The app's names that the packaged build and the running app must agree on. Pure, so the
 * builder-config test can check them against electron-builder.yml.
 */

/** electron-builder's `appId`: Windows' AppUserModelID (notifications, taskbar) and the updater's key. */
export const APP_ID = 'io.github.acp-desktop';

export const PRODUCT_NAME = 'ACP Desktop';

/** The URL scheme of deep links (`acp-desktop://install/<agent-id>`), registered as `protocols`. */
export const DEEP_LINK_SCHEME = 'acp-desktop';

/** Where Help → Documentation goes. */
export const DOCS_URL = 'https://agentclientprotocol.com';
