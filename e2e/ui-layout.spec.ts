import { expect, openApp, openTwoSessions, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('1 · layout, tabs and app commands', () => {
  test('sidebar groups sessions by agent and workspace; tabs open, switch, reorder (drag and keyboard), close', async ({ page, host, problems }) => {
    await openApp(page, host);
    const sidebar = page.getByRole('navigation', { name: 'Agents and sessions' });
    await expect(sidebar.getByText('Fixture Agent').first()).toBeVisible();

    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'usage');
    await expect(page.getByRole('heading', { name: 'Fixture titled session' })).toBeVisible();
    await waitIdle(page);
    // Ctrl+T opens the new-session dialog.
    await page.keyboard.press('Control+t');
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Workspace folder').fill(host.workspace);
    await dialog.getByRole('button', { name: 'Start' }).click();
    await waitIdle(page);

    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    await expect(tabs).toHaveCount(2);
    await expect(tabs.nth(0)).toHaveAccessibleName('Fixture titled session');
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');

    // Sidebar: one agent group, one workspace group with both sessions.
    const group = sidebar.getByRole('group', { name: `Fixture Agent in ${host.workspace}` });
    await expect(group.getByRole('button')).toHaveCount(2);

    // Ctrl+Tab switches.
    await page.keyboard.press('Control+Tab');
    await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: 'Fixture titled session' })).toBeVisible();

    // Reorder with the keyboard: Alt+ArrowRight moves the focused tab right.
    await tabs.nth(0).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expect(tabs.nth(1)).toHaveAccessibleName('Fixture titled session');
    // Arrow keys move the focus between tabs (roving tabindex).
    await page.keyboard.press('ArrowLeft');
    await expect(tabs.nth(0)).toBeFocused();

    // Reorder by dragging: the titled tab back to the front.
    await tabs.nth(1).dragTo(tabs.nth(0), { targetPosition: { x: 5, y: 10 } });
    await expect(tabs.nth(0)).toHaveAccessibleName('Fixture titled session');

    await shot(page, 'layout-two-tabs');
    // Ctrl+W closes the active tab.
    await tabs.nth(0).click();
    await page.keyboard.press('Control+w');
    await expect(tabs).toHaveCount(1);
    await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
    expect(problems).toEqual([]);
  });

  test('tab state: streaming, waiting for you with a badge on a background tab, idle, error', async ({ page, host }) => {
    const tabs = await openTwoSessions(page, host);

    // First tab: ask for permission, then switch away.
    await tabs.nth(0).click();
    await send(page, 'permission');
    await expect(page.getByRole('group', { name: /Permission requested/ })).toBeVisible();
    await expect(tabs.nth(0)).toHaveAccessibleDescription(/Waiting for you/);
    await tabs.nth(1).click();
    await expect(tabs.nth(0)).toHaveAccessibleDescription('Waiting for you, 1 waiting for you');
    await expect(page.locator('.tab').nth(0).locator('.badge')).toHaveText('1');

    // Second tab streams.
    await send(page, 'slow');
    await expect(tabs.nth(1)).toHaveAccessibleDescription('Streaming');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(tabs.nth(1)).toHaveAccessibleDescription('Idle');

    // An error: the agent fails the turn.
    await send(page, 'fail');
    await expect(transcript(page).getByRole('alert')).toContainText('The fixture failed on purpose');
    await expect(tabs.nth(1)).toHaveAccessibleDescription('Error');
  });

  test('ui.command from the desktop shell: settings, new session, next tab, close tab, focus session', async ({ page, host }) => {
    // Stand between the page and the host's WebSocket so the test can push events as main would.
    let toPage: ((message: string) => void) | null = null;
    await page.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      toPage = (message) => ws.send(message);
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => ws.send(message));
    });
    const command = (payload: Record<string, unknown>) => toPage!(JSON.stringify({ t: 'evt', name: 'ui.command', payload }));
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);

    command({ command: 'settings' });
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

    command({ command: 'newSession', agentId: 'fixture' });
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Workspace folder').fill(host.workspace);
    await dialog.getByRole('button', { name: 'Start' }).click();
    await waitIdle(page);
    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    await expect(tabs).toHaveCount(2);
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');

    command({ command: 'nextTab' });
    await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
    command({ command: 'previousTab' });
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
    const firstId = (await tabs.nth(0).getAttribute('id'))!.replace(/^tab-/, '');
    command({ command: 'focusSession', sessionId: firstId });
    await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
    command({ command: 'closeTab' });
    await expect(tabs).toHaveCount(1);
  });
});

test('typing right after clicking a tab lands in that tab, even when the host answers slowly', async ({ page, host }) => {
  // Everything the host sends reaches the page 400 ms late (in order), as on a busy machine.
  let delayed = false;
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    let chain = Promise.resolve();
    server.onMessage((message) => {
      chain = chain.then(async () => {
        if (delayed) await new Promise((resolve) => setTimeout(resolve, 400));
        ws.send(message);
      });
    });
  });
  const tabs = await openTwoSessions(page, host);
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');

  delayed = true;
  await tabs.nth(0).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('for the first tab');
  await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('for the first tab');
  // And the second tab's composer did not get it.
  await tabs.nth(1).click();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
});
