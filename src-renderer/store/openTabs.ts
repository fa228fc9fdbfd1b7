/** The tabs of `app.state`: which sessions are open, and which one is shown. */
export interface Tabs {
  open: readonly string[];
  active: string | null;
}

/**
 * Loads the open tabs' sessions, the one shown asked for first. Main answers a socket's requests
 * in order, and it opened the tabs in tab order: when the shown tab was not the first, its window
 * waited for the others' (issue 23, round 4: open). The others are asked for at once after it,
 * not once it has been answered: at 50,000 entries main takes long enough to open a session that
 * a second tab clicked right after the first showed would otherwise wait for it.
 * `skip` leaves out sessions the page has already.
 */
export function loadTabs(tabs: Tabs, load: (sessionId: string) => Promise<void>, skip: (sessionId: string) => boolean = () => false): Promise<void> {
  const active = tabs.active !== null && tabs.open.includes(tabs.active) ? tabs.active : null;
  const order = active === null ? tabs.open : [active, ...tabs.open.filter((id) => id !== active)];
  return Promise.all(order.filter((id) => !skip(id)).map((id) => load(id))).then(() => undefined);
}

/**
 * Whether the host has not read this tab's session back (yet), or could not (`tabsNotBack`): the
 * tab is shown in its place meanwhile, and its window is asked for once the host lists it as back.
 */
export function notBack(app: { tabsNotBack?: readonly { sessionId: string }[] }, sessionId: string): boolean {
  return app.tabsNotBack?.some((tab) => tab.sessionId === sessionId) ?? false;
}
