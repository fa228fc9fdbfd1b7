/**
 * What SDK 2.4.0's client side does with values ACP's forward-compatibility rule says must be
 * preserved (rfds-v2-enum-variant-extension). These tests pin the SDK's behaviour that the note
 * at the top of rawBoundary.ts describes: if an SDK upgrade changes it, they fail here.
 * The second half shows that AgentConnection keeps every one of those values anyway.
 */
import * as acp from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it, vi } from 'vitest';

type Raw = Record<string, unknown>;

/** A client app connected to an in-memory stream on which the test plays the agent with raw JSON. */
function rawPeer(register: (app: acp.ClientApp, seen: [string, unknown][]) => acp.ClientApp) {
  const toClient = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const fromClient = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const writer = toClient.writable.getWriter();
  const answers: Raw[] = [];
  void (async () => {
    const reader = fromClient.readable.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      answers.push(value as Raw);
    }
  })();
  const seen: [string, unknown][] = [];
  const connection = register(acp.client({ name: 'probe' }), seen).connect({ readable: toClient.readable, writable: fromClient.writable });
  const send = (message: Raw) => writer.write({ jsonrpc: '2.0', ...message } as acp.AnyMessage);
  const settle = () => new Promise((r) => setTimeout(r, 30));
  const answer = (id: number) => answers.find((a) => a.id === id && !('method' in a));
  return { connection, send, settle, seen, answers, answer };
}

const withUpdates = () => rawPeer((app, seen) => app.onNotification('session/update', ({ params }) => void seen.push(['update', params.update])));

describe('SDK 2.4.0 client: session/update', () => {
  afterEach(() => vi.restoreAllMocks());

  const update = async (u: Raw) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const peer = withUpdates();
    await peer.send({ method: 'session/update', params: { sessionId: 's', update: u } });
    await peer.settle();
    const count = errors.mock.calls.length;
    errors.mockRestore();
    return { received: peer.seen.map(([, value]) => value as Raw), errors: count };
  };

  it('drops a whole notification with an unknown update kind, future or `_`-prefixed', async () => {
    expect(await update({ sessionUpdate: 'future_kind', x: 1 })).toEqual({ received: [], errors: 1 });
    expect(await update({ sessionUpdate: '_vendor_kind', x: 1 })).toEqual({ received: [], errors: 1 });
  });

  it('drops a whole message chunk whose content block type is unknown', async () => {
    expect(await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'x_hologram', data: 1 } })).toEqual({ received: [], errors: 1 });
  });

  it('removes unknown tool kinds and statuses (also `_` ones) and unknown content items', async () => {
    const { received } = await update({
      sessionUpdate: 'tool_call',
      toolCallId: 't',
      title: 'T',
      kind: 'x_teleport',
      status: '_vendor_status',
      content: [{ type: 'x_future' }, { type: 'terminal', terminalId: 'z' }],
      locations: [{ path: '/a', x_future: 1 }],
      _meta: { a: 1 },
    });
    expect(received).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't',
        title: 'T',
        content: [{ type: 'terminal', terminalId: 'z' }],
        locations: [{ path: '/a' }],
        _meta: { a: 1 },
      },
    ]);
  });

  it('removes plan entries with an unknown priority or status', async () => {
    const { received } = await update({
      sessionUpdate: 'plan',
      entries: [
        { content: 'a', priority: 'x_urgent', status: 'pending' },
        { content: 'b', priority: 'high', status: 'x_paused' },
        { content: 'c', priority: 'low', status: 'pending' },
      ],
    });
    expect((received[0].entries as Raw[]).map((e) => e.content)).toEqual(['c']);
  });

  it('removes config options of an unknown type but keeps unknown categories and _meta', async () => {
    const { received } = await update({
      sessionUpdate: 'config_option_update',
      configOptions: [
        { id: 'a', name: 'A', type: 'x_slider', currentValue: 3 },
        { id: 'b', name: 'B', type: 'select', category: 'x_future_category', currentValue: 'v', options: [{ value: 'v', name: 'V' }], _meta: { m: 1 } },
      ],
    });
    const options = received[0].configOptions as Raw[];
    expect(options.map((o) => o.id)).toEqual(['b']);
    expect(options[0]).toMatchObject({ category: 'x_future_category', _meta: { m: 1 } });
  });

  it('removes an unknown slash-command input shape', async () => {
    const { received } = await update({
      sessionUpdate: 'available_commands_update',
      availableCommands: [{ name: 'a', description: 'd', input: { x_future: 1 } }],
    });
    expect(received[0].availableCommands).toEqual([{ name: 'a', description: 'd' }]);
  });

  it('keeps known values, messageId and _meta intact', async () => {
    const { received } = await update({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'hi', _meta: { q: 1 } } });
    expect(received).toEqual([{ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'hi', _meta: { q: 1 } } }]);
  });
});

describe('SDK 2.4.0 client: requests from the agent', () => {
  it('answers -32602 itself for a permission option kind it does not know; the handler never runs', async () => {
    const peer = rawPeer((app, seen) =>
      app.onRequest('session/request_permission', ({ params }) => {
        seen.push(['permission', params]);
        return { outcome: { outcome: 'cancelled' } };
      }),
    );
    await peer.send({
      id: 1,
      method: 'session/request_permission',
      params: { sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'a', name: 'A', kind: '_vendor_kind' }] },
    });
    await peer.settle();
    expect(peer.seen).toEqual([]);
    expect(peer.answer(1)).toMatchObject({ error: { code: -32602 } });
  });

  it('strips an unknown tool kind/status and unknown content from a permission request', async () => {
    const peer = rawPeer((app, seen) =>
      app.onRequest('session/request_permission', ({ params }) => {
        seen.push(['permission', params]);
        return { outcome: { outcome: 'cancelled' } };
      }),
    );
    await peer.send({
      id: 2,
      method: 'session/request_permission',
      params: {
        sessionId: 's',
        toolCall: { toolCallId: 't', kind: 'x_warp', status: 'x_w', content: [{ type: 'x' }] },
        options: [{ optionId: 'o', name: 'O', kind: 'allow_once' }],
        _meta: { p: 1 },
      },
    });
    await peer.settle();
    expect(peer.seen[0][1]).toEqual({
      sessionId: 's',
      toolCall: { toolCallId: 't', content: [] },
      options: [{ optionId: 'o', name: 'O', kind: 'allow_once' }],
      _meta: { p: 1 },
    });
  });

  it('passes elicitation requests with an unknown mode or property type through unchanged', async () => {
    const peer = rawPeer((app, seen) =>
      app.onRequest('elicitation/create', ({ params }) => {
        seen.push(['elicitation', params]);
        return { action: 'cancel' };
      }),
    );
    const future = { sessionId: 's', mode: 'x_future_mode', message: 'm' };
    const field = { sessionId: 's', mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'x_future_type' } } } };
    await peer.send({ id: 3, method: 'elicitation/create', params: future });
    await peer.send({ id: 4, method: 'elicitation/create', params: field });
    await peer.settle();
    expect(peer.seen.map(([, p]) => p)).toEqual([future, field]);
  });

  it('answers -32601 to unknown methods, with or without the `_` prefix, and ignores unknown notifications', async () => {
    const peer = rawPeer((app) => app);
    await peer.send({ id: 5, method: '_vendor/ping', params: {} });
    await peer.send({ id: 6, method: 'vendor/unprefixed', params: {} });
    await peer.send({ method: '_vendor/notice', params: {} });
    await peer.send({ method: 'future/notice', params: {} });
    await peer.settle();
    expect(peer.answer(5)).toMatchObject({ error: { code: -32601 } });
    expect(peer.answer(6)).toMatchObject({ error: { code: -32601 } });
    expect(peer.answers.filter((a) => a.id === undefined || a.id === null)).toEqual([]);
  });
});

describe('SDK 2.4.0 client: responses to our requests are not validated', () => {
  it('returns a future stop reason and unknown auth method types as sent', async () => {
    const peer = rawPeer((app) => app);
    const prompt = peer.connection.agent.request('session/prompt', { sessionId: 's', prompt: [] });
    const init = peer.connection.agent.request('initialize', { protocolVersion: 1 });
    await peer.settle();
    const ids = peer.answers.filter((a) => 'method' in a).map((a) => a.id as number);
    const authMethods = [
      { id: 'k', name: 'K', type: 'env_var', vars: [{ name: 'X' }] },
      { id: 'f', name: 'F', type: 'x_future' },
    ];
    await peer.send({ id: ids[0], result: { stopReason: 'x_future_stop', _meta: { a: 1 } } });
    await peer.send({ id: ids[1], result: { protocolVersion: 1, authMethods, agentCapabilities: { x_future: 1 } } });
    expect(await prompt).toEqual({ stopReason: 'x_future_stop', _meta: { a: 1 } });
    expect(await init).toEqual({ protocolVersion: 1, authMethods, agentCapabilities: { x_future: 1 } });
  });
});
