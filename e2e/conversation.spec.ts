import { expect, openApp, send, shot, startSession, test } from './fixtures/host';

test('a first conversation: streamed Markdown reply, then Stop cancels a running turn', async ({ page, host }) => {
  await openApp(page, host);
  await startSession(page, 'Fixture Agent', host.workspace);

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
