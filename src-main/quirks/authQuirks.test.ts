import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';
import { toAuthMethods } from '../acp/authMethods';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describe('sign-in hints in `_meta`', () => {
  it('Gemini\'s untyped key method with `_meta["api-key"]` becomes a key field for GEMINI_API_KEY; Qwen\'s `_meta.type: "terminal"` a terminal method', () => {
    const [oauth, key] = toAuthMethods([
      { id: 'oauth-personal', name: 'Log in with Google', description: null },
      {
        id: 'gemini-api-key',
        name: 'Use Gemini API key',
        description: 'Requires setting the `GEMINI_API_KEY` environment variable',
        _meta: { 'api-key': { provider: 'google' } },
      },
    ]);
    expect(oauth.type).toBe('agent');
    expect(key).toMatchObject({
      id: 'gemini-api-key',
      type: 'env_var',
      raw: { vars: [{ name: 'GEMINI_API_KEY', secret: true }], _meta: { 'api-key': { provider: 'google' } } },
    });
    const [qwen] = toAuthMethods([{ id: 'openai', name: 'Use OpenAI API key', _meta: { type: 'terminal', args: ['--auth-type=openai'] } }]);
    expect(qwen).toMatchObject({ type: 'terminal', raw: { args: ['--auth-type=openai'] } });
    // A key hint that names its variable in the description (another agent).
    expect((toAuthMethods([{ id: 'k', name: 'Key', description: 'Set `ACME_API_KEY`', _meta: { 'api-key': {} } }])[0].raw as { vars: unknown }).vars).toEqual([
      { name: 'ACME_API_KEY', label: 'Key', secret: true },
    ]);
  });

  it("Gemini: every failed sign-in says the agent's reason; the right key is stored as a secret, passed as GEMINI_API_KEY, and signs in", async () => {
    const h = harnesses.track(makeCore(['--auth', '--gemini-auth']));
    const sessionId = await h.newSession();
    await expect(h.core.handlers['auth.start']({ sessionId, methodId: 'oauth-personal' })).rejects.toThrow(
      'Login with Google is not available in this environment.',
    );
    await expect(h.core.handlers['auth.start']({ sessionId, methodId: 'gemini-api-key', env: { GEMINI_API_KEY: 'bad-key' } })).rejects.toThrow(
      'API key not valid',
    );
    // Each failure is also in the transcript, with the agent's words.
    await h.waitFor(() => h.notices(sessionId).filter((n) => n.level === 'error').length >= 2, 'two failure notices');
    expect(
      h
        .notices(sessionId)
        .filter((n) => n.level === 'error')
        .map((n) => n.message),
    ).toEqual([expect.stringContaining('Login with Google is not available'), expect.stringContaining('API key not valid')]);
    expect(h.state(sessionId).authMethods).not.toBeNull();
    await h.core.handlers['auth.start']({ sessionId, methodId: 'gemini-api-key', env: { GEMINI_API_KEY: 'good-key' } });
    await h.waitFor(() => h.connected(sessionId) && h.state(sessionId).authMethods === null, 'signed in and connected');
    await h.prompt(sessionId, 'hello after key');
    expect(h.agentText(sessionId)).toContain('hello after key');
  });

  it('Qwen: the `_meta.type: "terminal"` method runs the agent\'s own command with its args in a terminal', async () => {
    const cred = join(mkdtempSync(join(tmpdir(), 'acp-cred-')), 'cred');
    const h = harnesses.track(makeCore(['--auth', '--qwen-auth', '--cred-file', cred]));
    const sessionId = await h.newSession();
    const { terminalId } = (await h.core.handlers['auth.start']({ sessionId, methodId: 'openai' })) as { terminalId: string };
    await h.waitFor(() => Boolean(h.state(sessionId).terminals[terminalId]), 'the sign-in terminal');
    expect(h.state(sessionId).terminals[terminalId].args).toContain('--login-terminal');
    await h.waitFor(() => (h.state(sessionId).terminals[terminalId]?.output ?? '').includes('Type the code'), 'the sign-in prompt');
    await h.core.handlers['terminal.input']({ sessionId, terminalId, data: '1234\r' });
    await h.waitFor(() => h.state(sessionId).authMethods === null && h.connected(sessionId), 'signed in');
    expect(existsSync(cred)).toBe(true);
  });
});
