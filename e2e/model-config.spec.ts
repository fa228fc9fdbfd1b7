import { expect, fixtureAgent, openApp, send, shot, startHost, startSession, test } from './fixtures/host';

// rfds-model-config-category: model parameters sit with the model picker and work like it.
test('model_config options are shown with the model picker, and set like it (the agent’s answer is what shows)', async ({ page }) => {
  const host = await startHost({ settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--config', '--model-config'])] } });
  try {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    const bar = page.getByRole('toolbar', { name: 'Session options' });
    const group = bar.getByRole('group', { name: 'Model settings' });
    // In the group, in this order: the picker, then its parameters.
    await expect(group.getByRole('combobox')).toHaveCount(2);
    await expect(group.getByRole('switch')).toHaveCount(1);
    const model = group.getByRole('combobox', { name: 'Model' });
    const context = group.getByRole('combobox', { name: 'Context size' });
    const fast = group.getByRole('switch', { name: 'Fast mode' });
    await expect(model).toHaveValue('fixture-mini');
    await expect(context).toHaveValue('200k');
    await expect(fast).not.toBeChecked();
    // Web search is not a model parameter: outside the group.
    await expect(group.getByRole('switch', { name: 'Web search' })).toHaveCount(0);
    await expect(bar.getByRole('switch', { name: 'Web search' })).toBeVisible();
    await context.selectOption('1m');
    await expect(context).toHaveValue('1m');
    await fast.click();
    await expect(fast).toBeChecked();
    // What the agent received, in its own words.
    await send(page, 'echoconfig');
    const transcript = page.getByRole('log', { name: 'Transcript' });
    const calls = transcript.getByText(/^Config calls: /);
    // The answer streams: read it once the turn has ended.
    await expect(page.getByLabel('Session status')).toHaveText('Idle');
    await expect(calls).toContainText('fast_mode');
    const sent = JSON.parse(((await calls.textContent()) ?? '').replace(/^Config calls: /, '')) as { configId: string; value: unknown }[];
    expect(sent.map((call) => [call.configId, call.value])).toEqual([
      ['context_size', '1m'],
      ['fast_mode', true],
    ]);
    await expect(bar.getByRole('button', { name: /No model picker/ })).toHaveCount(0);
    await shot(page, 'model-config-with-model-picker');
  } finally {
    await page.goto('about:blank').catch(() => undefined);
    await host.stop();
  }
});
