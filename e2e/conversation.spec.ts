import { agentProtocol, expect, openApp, protocolShown, send, shot, startSession, test } from './fixtures/host';

test('a first conversation: streamed Markdown reply, then Stop cancels a running turn', async ({ page, host }) => {
  await openApp(page, host);
  await startSession(page, 'Fixture Agent', host.workspace);
  // Under the `auto` project the fixture must really speak v2: a silent fallback to v1 would prove nothing.
  expect(await protocolShown(page)).toBe(agentProtocol() === 'auto' ? 'ACP v2' : 'ACP v1');

  await send(page, 'hello from the test');
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript.getByText('Echo:', { exact: true })).toBeVisible();
  await expect(transcript.getByText('console.log("hello from the fixture");')).toBeVisible();
  await expect(transcript.getByRole('button', { name: 'Copy code' })).toBeVisible();
  await expect(transcript.getByText('Turn ended')).toBeVisible();
  await shot(page, 'streamed-answer-with-code');

  await send(page, 'slow');
  await expect(transcript.getByText(/chunk 3/)).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(transcript.getByText('Stopped')).toBeVisible();
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
});
