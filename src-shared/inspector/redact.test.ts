import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretName, PasswordFields, REDACTED } from './redact';

describe('isSecretName', () => {
  it('names a secret by its ending, without case or separators', () => {
    for (const name of ['GITHUB_TOKEN', 'OPENAI_API_KEY', 'x-api-key', 'Authorization', 'password', 'clientSecret', 'Cookie', 'AWS_SECRET_ACCESS_KEY'])
      expect(isSecretName(name), name).toBe(true);
  });
  it('leaves counts and ordinary names alone', () => {
    for (const name of ['inputTokens', 'totalTokens', 'tokenizer', 'sessionId', 'PATH', 'HOME', 'name', 'title']) expect(isSecretName(name), name).toBe(false);
  });
});

describe('createRedactor', () => {
  it('replaces known secret values wherever they occur in a string (an agent echoing its key)', () => {
    const redactor = createRedactor(['sk-live-123456']);
    const message = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'my key is sk-live-123456, ok' } } },
    };
    const out = JSON.stringify(redactor.message(message));
    expect(out).not.toContain('sk-live-123456');
    expect(out).toContain(`my key is ${REDACTED}, ok`);
    // The input is not changed.
    expect(message.params.update.content.text).toContain('sk-live-123456');
  });

  it('replaces the value under a key named like a secret, and the value of a {name, value} pair named like one', () => {
    const redactor = createRedactor([]);
    const out = redactor.message({
      jsonrpc: '2.0',
      id: 1,
      method: 'session/new',
      params: {
        cwd: '/w',
        mcpServers: [
          {
            name: 'gh',
            command: 'x',
            env: [
              { name: 'GITHUB_TOKEN', value: 'ghp_abc' },
              { name: 'PATH', value: '/bin' },
            ],
          },
          { type: 'http', name: 'web', url: 'https://x', headers: [{ name: 'Authorization', value: 'Bearer zzz' }] },
        ],
        _meta: { apiKey: 'k-1', usage: { inputTokens: 5 } },
      },
    });
    const text = JSON.stringify(out);
    for (const secret of ['ghp_abc', 'Bearer zzz', 'k-1']) expect(text).not.toContain(secret);
    expect(text).toContain('/bin');
    expect(text).toContain('"inputTokens":5');
  });

  it('blanks every field of a sign-in request but the method id (v1 authenticate, v2 auth/login)', () => {
    const redactor = createRedactor([]);
    for (const method of ['authenticate', 'auth/login']) {
      const out = redactor.message({ jsonrpc: '2.0', id: 2, method, params: { methodId: 'key', _meta: { 'api-key': 'AIza-1' }, code: '4242' } }) as {
        params: Record<string, unknown>;
      };
      expect(out.params.methodId).toBe('key');
      expect(JSON.stringify(out)).not.toContain('AIza-1');
      expect(out.params.code).toBe(REDACTED);
    }
  });

  it("blanks an elicitation's password fields in the app's answer, remembered from the agent's request", () => {
    const passwords = new PasswordFields();
    const redactor = createRedactor([], passwords);
    redactor.message(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'elicitation/create',
        params: { requestedSchema: { properties: { user: { type: 'string' }, pin: { type: 'string', format: 'password' } } } },
      },
      'in',
    );
    const answer = { jsonrpc: '2.0', id: 7, result: { action: 'accept', content: { user: 'ann', pin: '9876' } } };
    const out = redactor.message(answer, 'out') as { result: { content: Record<string, string> } };
    expect(out.result.content).toEqual({ user: 'ann', pin: REDACTED });
    // Decoded again (another window): still blank. An answer going the other way is not touched.
    expect((redactor.message(answer, 'out') as typeof out).result.content.pin).toBe(REDACTED);
    expect((redactor.message(answer, 'in') as typeof out).result.content.pin).toBe('9876');
  });

  it('redacts a line of text (JSON or not), and ignores values too short to search for', () => {
    const redactor = createRedactor(['abc', 'hunter22']);
    expect(redactor.line('{"a":"x hunter22 y","b":"abc"}')).toBe(`{"a":"x ${REDACTED} y","b":"abc"}`);
    expect(redactor.line('not json hunter22')).toBe(`not json ${REDACTED}`);
  });

  it('replaces a longer secret whole when a shorter one is part of it', () => {
    const redactor = createRedactor(['pass', 'password-long-1']);
    expect(redactor.line('"password-long-1"')).toBe(`"${REDACTED}"`);
  });
});

describe('StreamScrubber', () => {
  const chunk = (text: string, messageId = 'm1') => ({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } } },
  });
  const textOf = (message: unknown) => (message as ReturnType<typeof chunk>).params.update.content.text;

  it('blanks a secret streamed across chunks, a few characters at a time, without changing the input', () => {
    const streams = createRedactor(['sk-live-123456']).streams();
    const parts = ['Key: sk-l', 'ive-12', '3456 done'];
    const inputs = parts.map((part) => chunk(part));
    const out = inputs.map((input) => textOf(streams.scrub(input))).join('');
    expect(out).not.toMatch(/live|1234|3456/);
    expect(out.startsWith('Key: ')).toBe(true);
    expect(out.endsWith(' done')).toBe(true);
    expect(inputs.map(textOf)).toEqual(parts);
  });

  it('blanks the end of a secret at the start of the first chunk it reads (its start was before the window)', () => {
    const streams = createRedactor(['sk-live-123456']).streams();
    expect(textOf(streams.scrub(chunk('e-123456 and more')))).toBe(`${REDACTED} and more`);
  });

  it('keeps separate messages apart, and leaves text without secrets as it was', () => {
    const streams = createRedactor(['sk-live-123456']).streams();
    expect(textOf(streams.scrub(chunk('key sk-live-1', 'a')))).toBe(`key ${REDACTED}`); // may be a secret's start: blanked
    expect(textOf(streams.scrub(chunk('twenty', 'b')))).toBe('twenty'); // another message between
    expect(textOf(streams.scrub(chunk('23456 ok', 'a')))).toBe(`${REDACTED} ok`); // the first message goes on
    const normal = chunk('hello world', 'c');
    expect(streams.scrub(normal)).toBe(normal);
  });
});
