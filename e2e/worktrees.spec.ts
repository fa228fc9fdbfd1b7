import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, fixtureAgent, leavePage, openApp, type RunningHost, send, shot, startHost, test } from './fixtures/host';

// Worktree sessions through the UI: two agents on one repository, each on its own branch; one
// merged, the other conflicting (the base untouched) and discarded. Real git, the fixture agent.

const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });

function makeRepo(): string {
  const repo = mkdtempSync(join(tmpdir(), 'acp-e2e-repo-'));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.name', 'Test Person');
  git(repo, 'config', 'user.email', 'test@example.com');
  writeFileSync(join(repo, 'shared.txt'), 'line\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'initial');
  return repo;
}

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

async function worktreeSession(page: Page, folder: string, branch: string): Promise<void> {
  await page.getByRole('button', { name: 'New session with Fixture Agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(folder);
  const option = dialog.getByRole('checkbox', { name: 'Start in a new worktree' });
  await expect(option).toBeEnabled();
  await option.check();
  await expect(dialog.getByLabel('Base branch')).toHaveValue('main');
  await expect(dialog.getByLabel('Branch name')).toHaveValue(/^fixture\/session-[0-9a-f]{4}$/);
  await dialog.getByLabel('Branch name').fill(branch);
  expect(await axe(page), 'axe on the New session dialog with the worktree fields').toEqual([]);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await expect(page.getByLabel(`Branch ${branch} from main`, { exact: true })).toBeVisible();
}

/** axe-core's WCAG checks (Monaco's own DOM excluded, as in ui-a11y.spec.ts). */
async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('.monaco-editor').exclude('.xterm').analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const review = (page: Page) => page.getByRole('region', { name: 'Worktree' });

test('two agents on one repository: both reviewed, one merged, the other conflicts with main untouched and is discarded', async ({ page }) => {
  const repo = makeRepo();
  const outside = mkdtempSync(join(tmpdir(), 'acp-e2e-plain-'));
  const host = await startHost({ workspace: repo, settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '2'])] }, env: GIT_ENV });
  hosts.push(host);
  await openApp(page, host);

  // Outside a repository the option is there, disabled, with the reason.
  await page.getByRole('button', { name: 'New session with Fixture Agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(outside);
  await expect(dialog.getByRole('checkbox', { name: 'Start in a new worktree' })).toBeDisabled();
  await expect(dialog.getByText('The workspace folder is not inside a git repository.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await worktreeSession(page, repo, 'fixture/alpha');
  await send(page, 'writefile shared.txt from alpha');
  await expect(page.getByText('Wrote shared.txt')).toBeVisible();
  await worktreeSession(page, repo, 'fixture/beta');
  await send(page, 'writefile shared.txt from beta');
  await expect(page.getByText('Wrote shared.txt')).toBeVisible();

  // Each tab names its branch; each Review shows its own uncommitted change against main.
  const alphaTab = page.getByRole('tab', { name: /fixture\/alpha/ });
  const betaTab = page.getByRole('tab', { name: /fixture\/beta/ });
  await expect(alphaTab).toBeVisible();
  await expect(betaTab).toBeVisible();
  await page.getByRole('tab', { name: 'Review' }).click();
  await expect(review(page).getByLabel('Branch against its base')).toHaveText('0 commits not in main · 0 behind · 1 uncommitted change');
  await expect(review(page).getByRole('list', { name: 'Uncommitted changes' })).toContainText('shared.txt');
  await review(page).getByText('Diff against main').click();
  await expect(review(page).getByLabel('Diff')).toContainText('+from beta');
  await shot(page, 'worktrees-two-tabs');
  expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('line\n');

  await alphaTab.click();
  await page.getByRole('tab', { name: 'Review' }).click();
  await expect(review(page).getByLabel('Commit message')).toHaveValue('Changes from the Fixture Agent session');
  await review(page).getByRole('button', { name: 'Commit' }).click();
  await expect(review(page).getByLabel('Branch against its base')).toHaveText('1 commit not in main · 0 behind · 0 uncommitted changes');
  await review(page).getByRole('button', { name: 'Merge into main' }).click();
  await expect(review(page).getByRole('status').filter({ hasText: 'main fast-forwarded to fixture/alpha.' })).toBeVisible();
  expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('from alpha\n');
  await expect(review(page).getByLabel('Branch against its base')).toHaveText('0 commits not in main · 0 behind · 0 uncommitted changes');
  await shot(page, 'worktrees-merged');
  // The browser host cannot open a folder on the machine: it says where the worktree is.
  await review(page).getByRole('button', { name: 'Open folder' }).click();
  await expect(
    review(page)
      .getByRole('status')
      .filter({ hasText: /^The worktree is at .*acp-e2e-repo-.*-fixture-alpha$/ }),
  ).toBeVisible();
  await review(page).getByRole('button', { name: 'Keep' }).click();
  await expect(review(page).getByText('Kept: the branch and its worktree stay as they are.')).toBeVisible();
  await expect(review(page).getByRole('button', { name: 'Keep' })).toBeHidden();

  await betaTab.click();
  await page.getByRole('tab', { name: 'Review' }).click();
  await review(page).getByLabel('Commit message').fill('Beta says hello');
  await review(page).getByRole('button', { name: 'Commit' }).click();
  await expect(review(page).getByRole('list', { name: 'Commits on the branch' })).toContainText('Beta says hello');
  const mainBefore = git(repo, 'rev-parse', 'main');
  await review(page).getByRole('button', { name: 'Merge into main' }).click();
  const conflict = review(page).getByRole('alert');
  await expect(conflict).toContainText('Conflict: nothing was merged.');
  await expect(conflict.getByRole('list', { name: 'Conflicting files' })).toHaveText('shared.txt');
  await shot(page, 'worktrees-merge-conflict');
  expect(await axe(page), 'axe on the worktree review with a conflict').toEqual([]);
  expect(git(repo, 'rev-parse', 'main')).toBe(mainBefore);
  expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('from alpha\n');
  expect(git(repo, 'status', '--porcelain')).toBe('');

  // Discard names what is lost, then removes the worktree, the branch and the tab.
  await review(page).getByRole('button', { name: 'Discard…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Discard this worktree?' });
  await expect(confirm.getByRole('list', { name: 'Unmerged commits that will be lost' })).toContainText('Beta says hello');
  await confirm.getByRole('button', { name: 'Discard worktree and branch' }).click();
  await expect(betaTab).toBeHidden();
  // The tab closes first (its agent stops writing there), then git removes the worktree and the branch.
  await expect
    .poll(() => git(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort(), { timeout: 20_000 })
    .toEqual(['fixture/alpha', 'main']);
  await expect.poll(() => git(repo, 'worktree', 'list').trim().split('\n').length, { timeout: 20_000 }).toBe(2);
});

test('a worktree session comes back after a restart; a leftover worktree is offered for removal, naming what is lost', async ({ page }) => {
  const repo = makeRepo();
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-data-'));
  // A worktree in the app's folder that no session claims (its session deleted, a record lost).
  const stray = join(dataDir, 'worktrees', 'stray');
  git(repo, 'worktree', 'add', '-q', '-b', 'stray', stray, 'main');
  writeFileSync(join(stray, 'notes.txt'), 'unsaved\n');
  const settings = { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '2'])] };
  const first = await startHost({ dataDir, workspace: repo, settings, env: GIT_ENV });
  hosts.push(first);
  await openApp(page, first);
  await worktreeSession(page, repo, 'fixture/kept');
  await first.stop();

  const second = await startHost({ dataDir, workspace: repo, env: GIT_ENV });
  hosts.push(second);
  await openApp(page, second);
  await expect(page.getByRole('tab', { name: /fixture\/kept/ })).toBeVisible();
  await expect(page.getByLabel('Branch fixture/kept from main', { exact: true })).toBeVisible();

  const leftovers = page.getByRole('region', { name: 'Leftover worktrees' });
  await expect(leftovers).toContainText('stray');
  await expect(leftovers).not.toContainText('fixture/kept');
  await shot(page, 'worktrees-restart-leftover');
  await leftovers.getByRole('button', { name: 'Remove stray…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Discard this worktree?' });
  await expect(confirm.getByRole('list', { name: 'Uncommitted files that will be lost' })).toHaveText('notes.txt');
  await confirm.getByRole('button', { name: 'Discard worktree and branch' }).click();
  await expect(leftovers).toBeHidden();
  expect(git(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort()).toEqual(['fixture/kept', 'main']);
});
