import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureAgent, startHost } from './fixtures/host';
import { expect, FIXTURE, openApp, seedSession, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('5 · plans, 7 · config options, 11 · agent info, 12 · unknown values', () => {
  test('the plan: live in the side panel with priority and status, summarised in the transcript', async ({ page, host, problems }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'plan');
    await waitIdle(page);
    const panel = page.getByRole('complementary', { name: 'Side panel' });
    await expect(panel.getByRole('tab', { name: 'Plan' })).toHaveAttribute('aria-selected', 'true');
    const items = panel.getByRole('list', { name: 'Plan entries' }).getByRole('listitem');
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toHaveAccessibleName('Read the code — Completed, High priority');
    await expect(items.nth(1)).toHaveAccessibleName('Write the fix — Completed, Medium priority');
    await expect(items.nth(2)).toHaveAccessibleName('Run the tests — In progress, Low priority');
    await expect(panel.getByText('2 of 3 done')).toBeVisible();
    const summary = transcript(page).getByRole('region', { name: 'Plan' });
    await expect(summary).toContainText('2 of 3 done');
    await expect(summary).toContainText('Run the tests');
    await shot(page, 'plan-panel');
    // The panel can be closed and shown again from the header or the summary.
    await panel.getByRole('button', { name: 'Close side panel' }).click();
    await expect(panel).toBeHidden();
    await summary.getByRole('button', { name: 'Show plan' }).click();
    await expect(page.getByRole('complementary', { name: 'Side panel' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('config options: ordered by category, groups as optgroups, a switch for booleans, changes both ways show at once', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    const bar = page.getByRole('toolbar', { name: 'Session options' });
    await expect(bar.locator('.config-label')).toHaveText(['Mode', 'Model', 'Web search', 'Future option']);
    const model = bar.getByRole('combobox', { name: 'Model', exact: true });
    await expect(model.locator('optgroup')).toHaveCount(2);
    expect(await model.locator('optgroup').evaluateAll((groups) => groups.map((g) => (g as HTMLOptGroupElement).label))).toEqual([
      'Fast models',
      'Smart models',
    ]);
    await expect(model).toHaveValue('fixture-mini');
    // The person changes an option: the agent's answer (the full list) is what shows.
    await model.selectOption('fixture-pro');
    await expect(model).toHaveValue('fixture-pro');
    const web = bar.getByRole('switch', { name: 'Web search' });
    await expect(web).not.toBeChecked();
    await web.click();
    await expect(web).toBeChecked();
    await model.selectOption('fixture-mini');
    await expect(model).toHaveValue('fixture-mini');
    // The agent changes its own options mid-turn.
    await send(page, 'selfconfig');
    await expect(model).toHaveValue('fixture-pro');
    await expect(bar.getByRole('combobox', { name: 'Mode', exact: true })).toHaveValue('code');
    await expect(bar.getByRole('button', { name: /No model picker/ })).toHaveCount(0);
  });

  test('legacy modes as a select when there are no config options; the missing model picker says why', async ({ page }) => {
    const host = await startHost({ settings: { agents: [fixtureAgent('modal', 'Modes Agent', ['--modes'])] } });
    try {
      await openApp(page, host);
      await startSession(page, 'Modes Agent', host.workspace);
      const bar = page.getByRole('toolbar', { name: 'Session options' });
      const mode = bar.getByRole('combobox', { name: 'Mode', exact: true });
      await expect(mode).toHaveValue('ask');
      await mode.selectOption('code');
      await expect(mode).toHaveValue('code');
      const why = bar.getByRole('button', { name: 'Why: No model picker' });
      await why.click();
      await expect(page.getByRole('tooltip')).toContainText('Modes Agent did not offer a model option for this session');
      await shot(page, 'modes-and-missing-model');
    } finally {
      await page.close();
      await host.stop();
    }
  });

  test('agent and session info: name, version, capabilities, stderr log; usage with thresholds and cost; title from session_info_update', async ({
    page,
    host,
  }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'usage');
    await expect(page.getByRole('heading', { name: 'Fixture titled session', level: 1 })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Fixture titled session' })).toBeVisible();
    const meter = page.getByRole('meter', { name: 'Context window used' });
    await expect(meter).toHaveAttribute('aria-valuenow', '27');
    await expect(page.getByText('53k / 200k · 27%')).toBeVisible();
    await expect(page.getByLabel('Cost $0.045')).toBeVisible();
    await waitIdle(page);

    await page.getByRole('button', { name: 'Session info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agent and session' });
    await expect(dialog.getByRole('definition').filter({ hasText: '1.2.3' })).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Capabilities' })).toContainText('Images in prompts');
    await expect(dialog.getByRole('list', { name: 'Capabilities' }).getByRole('listitem').filter({ hasText: 'Images in prompts' })).toContainText(': yes');
    await expect(dialog.getByLabel('Agent log', { exact: true })).toBeVisible();
    await shot(page, 'session-info');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    // The agent's stderr: shown when it exits, and in the info dialog's log.
    await send(page, 'crash');
    await expect(transcript(page).getByRole('alert').filter({ hasText: 'The agent exited with code 3' })).toContainText('simulated crash');
    await page.getByRole('button', { name: 'Session info' }).click();
    await expect(page.getByRole('dialog', { name: 'Agent and session' }).getByLabel('Agent log', { exact: true })).toContainText('simulated crash');
  });

  test("agent info shows the agent's initialize _meta and the app log (its file and last lines)", async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await waitIdle(page);
    // An agent that exits is written to the app log (logs/main.log in the data folder).
    await send(page, 'crash');
    await expect(transcript(page).getByRole('alert').filter({ hasText: 'The agent exited with code 3' })).toBeVisible();
    await page.getByRole('button', { name: 'Session info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agent and session' });
    // The fixture's initialize answer carries `_meta.clientCapabilitiesSeen`.
    await expect(dialog.getByLabel('Agent _meta', { exact: true })).toContainText('clientCapabilitiesSeen');
    await expect(dialog.getByLabel('App log file', { exact: true })).toHaveText(join(host.dataDir, 'logs', 'main.log'));
    await expect(dialog.getByLabel('App log', { exact: true })).toContainText('fixture: The agent exited with code 3');
    // The browser host cannot open files on the person's machine: it shows the lines instead.
    await expect(dialog.getByRole('button', { name: 'Open log file' })).toHaveCount(0);
    await shot(page, 'agent-info-meta-and-app-log');
  });

  test('usage colour thresholds: a nearly full context window is red and says so', async ({ page }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-usage-'));
    const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
    seedSession(dataDir, 's_usage', workspace, [
      { kind: 'acp.update', update: { sessionUpdate: 'usage_update', used: 192_000, size: 200_000, cost: { amount: 12.5, currency: 'EUR' } } },
    ]);
    const host = await startHost({ dataDir, workspace, settings: { agents: [FIXTURE] } });
    try {
      await page.goto(host.url);
      const meter = page.getByRole('meter', { name: 'Context window used' });
      await expect(meter).toHaveAttribute('aria-valuenow', '96');
      await expect(meter).toHaveAttribute('aria-valuetext', /Next prompt may fail/);
      await expect(page.locator('.usage')).toHaveClass(/usage-critical/);
      await expect(page.getByLabel(/Cost €12\.50/)).toBeVisible();
    } finally {
      await page.close();
      await host.stop();
    }
  });

  test('anything unknown is a small labelled box with its raw JSON, never dropped', async ({ page, host, problems }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'unknown');
    await waitIdle(page);
    const log = transcript(page);
    const custom = log.getByRole('group', { name: 'Unknown: update _fixture_custom' });
    await expect(custom).toBeVisible();
    await custom.locator('summary').click();
    await expect(custom).toContainText('"answer": 42');
    await expect(log.getByRole('group', { name: 'Unknown: update future_update_kind' })).toBeVisible();
    const teleport = log.getByRole('article', { name: 'Tool call: Teleport' });
    await expect(teleport.getByRole('img', { name: 'Unknown kind x_teleport' })).toBeVisible();
    await expect(teleport.getByRole('status', { name: 'Status: x_warping' })).toBeVisible();
    await expect(teleport.getByRole('group', { name: /Unknown: tool call kind x_teleport, status x_warping/ })).toBeVisible();
    await expect(log.getByRole('group', { name: 'Unknown: content x_hologram' })).toBeVisible();
    await expect(log.getByText('Turn ended (x_future_stop)')).toBeVisible();
    const panel = page.getByRole('complementary', { name: 'Side panel' });
    await expect(panel.getByRole('listitem', { name: /Future step — x_paused, x_urgent priority/ })).toBeVisible();
    await shot(page, 'unknown-values');
    expect(problems).toEqual([]);
  });
});
