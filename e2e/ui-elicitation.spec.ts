import { expect, openApp, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('9 · elicitation', () => {
  test('a form from the restricted JSON Schema: defaults, validation before sending, Accept with typed values', async ({ page, host, problems }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'elicit');
    const form = page.getByRole('region', { name: 'Tell me about your project' });
    await expect(form).toBeVisible();
    const name = form.getByRole('textbox', { name: 'Project name' });
    const email = form.getByRole('textbox', { name: 'Email' });
    const stars = form.getByRole('spinbutton', { name: 'Stars' });
    await expect(stars).toHaveValue('3');
    await expect(form.getByRole('checkbox', { name: 'Private' })).not.toBeChecked();
    await expect(name).toBeFocused();

    await form.getByRole('button', { name: 'Accept' }).click();
    await expect(form.getByText('Project name is required.')).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toBeFocused();
    await name.fill('x');
    await expect(form.getByText('Use at least 2 characters.')).toBeVisible();
    await email.fill('not-an-email');
    await stars.fill('9');
    await form.getByRole('button', { name: 'Accept' }).click();
    await expect(form.getByText('Enter an email address, like name@example.com.')).toBeVisible();
    await expect(form.getByText('Must be at most 5.')).toBeVisible();
    await expect(form.getByRole('alert')).toHaveText('Fix the 3 fields marked above.');
    await shot(page, 'elicitation-form');

    await name.fill('acp');
    await email.fill('dev@example.com');
    await stars.fill('4');
    await form.getByRole('checkbox', { name: 'Private' }).check();
    await form.getByRole('combobox', { name: 'Language' }).selectOption('rust');
    const tags = form.getByRole('group', { name: 'Tags' });
    await tags.getByRole('checkbox', { name: 'web' }).check();
    await tags.getByRole('checkbox', { name: 'cli' }).check();
    await form.getByRole('button', { name: 'Accept' }).click();
    await expect(form).toBeHidden();
    await expect(
      transcript(page).getByText(
        'Elicitation accept: {"name":"acp","email":"dev@example.com","stars":4,"private":true,"language":"rust","tags":["web","cli"]}',
      ),
    ).toBeVisible();
    await waitIdle(page);

    await send(page, 'elicit');
    await page.getByRole('region', { name: 'Tell me about your project' }).getByRole('button', { name: 'Decline' }).click();
    await expect(transcript(page).getByText('Elicitation decline')).toBeVisible();
    await waitIdle(page);
    await send(page, 'elicit');
    await page.getByRole('region', { name: 'Tell me about your project' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(transcript(page).getByText('Elicitation cancel')).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('an unknown field type is shown as unsupported and the form can only be declined', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'elicitbad');
    const form = page.getByRole('region', { name: 'A form with a field we cannot show' });
    await expect(form.getByRole('group', { name: /Unknown: unsupported field Future field/ })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Accept' })).toBeDisabled();
    await expect(form.getByText('can only be declined')).toBeVisible();
    await form.getByRole('button', { name: 'Decline' }).click();
    await expect(transcript(page).getByText('Elicitation decline')).toBeVisible();
  });

  test('URL mode: the full URL and its domain; the browser opens only after the person confirms', async ({ page, host }) => {
    await page.context().route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>ok</title>' }));
    let popups = 0;
    page.on('popup', () => popups++);
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'elicitsurl');
    const card = page.getByRole('region', { name: 'Authorize access' });
    await expect(card.getByText('Domain: example.com')).toBeVisible();
    await expect(card.getByLabel('Full address')).toHaveText('https://example.com/authorize?x=1');
    await card.getByRole('button', { name: 'Open in browser…' }).click();
    const confirm = card.getByRole('group', { name: 'Confirm opening' });
    await expect(confirm).toContainText('Open example.com in your browser?');
    expect(popups).toBe(0);
    await shot(page, 'elicitation-url');
    const popup = page.waitForEvent('popup');
    await confirm.getByRole('button', { name: 'Yes, open it' }).click();
    expect((await popup).url()).toBe('https://example.com/authorize?x=1');
    await expect(transcript(page).getByText('URL elicitation accept')).toBeVisible();
  });
});
