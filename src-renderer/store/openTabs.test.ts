import { describe, expect, it } from 'vitest';
import { loadTabs, notBack } from './openTabs';

function recorder() {
  const asked: string[] = [];
  const load = (id: string) => {
    asked.push(id);
    return Promise.resolve();
  };
  return { asked, load };
}

describe('loadTabs (issue 23: the shown session asked for first)', () => {
  it('asks for the shown tab first, then the others in tab order', async () => {
    const { asked, load } = recorder();
    await loadTabs({ open: ['a', 'b', 'c'], active: 'c' }, load);
    expect(asked).toEqual(['c', 'a', 'b']);
  });

  it('skips the sessions the page has', async () => {
    const { asked, load } = recorder();
    await loadTabs({ open: ['a', 'b', 'c'], active: 'b' }, load, (id) => id === 'b');
    expect(asked).toEqual(['a', 'c']);
  });

  it('keeps tab order when no tab is shown or the shown id is not an open tab', async () => {
    const none = recorder();
    await loadTabs({ open: ['x', 'y'], active: null }, none.load);
    expect(none.asked).toEqual(['x', 'y']);
    const gone = recorder();
    await loadTabs({ open: ['a', 'b'], active: 'gone' }, gone.load);
    expect(gone.asked).toEqual(['a', 'b']);
  });

  it('leaves the tabs the host has not read back yet for later (their window is asked once they are back)', async () => {
    const { asked, load } = recorder();
    const app = { tabs: { open: ['a', 'b', 'c'], active: 'b' }, tabsNotBack: [{ sessionId: 'a' }, { sessionId: 'c' }] };
    await loadTabs(app.tabs, load, (id) => notBack(app, id));
    expect(asked).toEqual(['b']);
    const back = { ...app, tabsNotBack: [{ sessionId: 'c' }] };
    await loadTabs(back.tabs, load, (id) => id === 'b' || notBack(back, id));
    expect(asked).toEqual(['b', 'a']);
  });
});
