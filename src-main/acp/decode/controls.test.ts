import { describe, expect, it } from 'vitest';
import {
  decodeAgentInfo,
  decodeAuthMethod,
  decodeBackground,
  decodeCapabilities,
  decodeCommands,
  decodeConfigOptions,
  decodeContextUsage,
  decodeElicitationContent,
  decodeElicitationRequest,
  decodeEventControls,
  decodeModels,
  decodeModes,
  decodePermissionSubject,
  decodeToolCapabilities,
  decodeTurnUsage,
  decodeWireError,
} from './controls';

const select = {
  id: 'model',
  name: 'Model',
  category: 'model',
  type: 'select',
  currentValue: 'fast',
  options: [
    { value: 'auto', name: 'Auto' },
    { group: 'fast', name: 'Fast', options: [{ value: 'fast', name: 'Fast one', description: 'Quick' }] },
  ],
};
const boolean = { id: 'web', name: 'Web search', type: 'boolean', currentValue: true };
const slider = { id: 'temp', name: 'Temperature', type: 'x_slider', currentValue: 0.5, min: 0, max: 1 };

describe('config options', () => {
  it('a select (values and groups) and a boolean are typed; another type keeps what was sent', () => {
    expect(decodeConfigOptions([select, boolean, slider])).toEqual([
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: 'fast',
        options: [
          { value: 'auto', name: 'Auto' },
          { group: 'fast', name: 'Fast', options: [{ value: 'fast', name: 'Fast one', description: 'Quick' }] },
        ],
      },
      { id: 'web', name: 'Web search', type: 'boolean', currentValue: true },
      { id: 'temp', name: 'Temperature', type: 'unknown', typeName: 'x_slider', raw: slider },
    ]);
  });

  it("v2's names (configId, groupId) read as v1's", () => {
    const [option] = decodeConfigOptions([
      { configId: 'm', name: 'M', type: 'select', currentValue: 'a', options: [{ groupId: 'g', name: 'G', options: [{ value: 'a', name: 'A' }] }] },
    ]);
    expect(option).toMatchObject({ id: 'm', options: [{ group: 'g', name: 'G' }] });
  });

  it('an `_` extension type is kept raw too', () => {
    expect(decodeConfigOptions([{ id: 'x', type: '_acme_knob' }])[0]).toEqual({
      id: 'x',
      name: 'x',
      type: 'unknown',
      typeName: '_acme_knob',
      raw: { id: 'x', type: '_acme_knob' },
    });
  });
});

describe('modes, models, commands', () => {
  it('modes and models: the current one and the list; not an object reads as none', () => {
    expect(decodeModes({ currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code' }, 'junk'] })).toEqual({
      currentModeId: 'ask',
      availableModes: [
        { id: 'ask', name: 'Ask' },
        { id: 'code', name: 'code' },
      ],
    });
    expect(decodeModes('ask')).toBeNull();
    expect(decodeModels({ currentModelId: 'm1', availableModels: [{ modelId: 'm1', name: 'One' }] })).toEqual({
      currentModelId: 'm1',
      availableModels: [{ modelId: 'm1', name: 'One' }],
    });
  });

  it('commands: v1 and v2 (tagged) read alike, the input hint lifted; a command of an unknown type keeps what was sent', () => {
    const macro = { type: '_x_macro', name: 'macro' };
    expect(
      decodeCommands([
        { name: 'web', description: 'Search', input: { hint: 'query' } },
        { type: 'command', name: 'plan', input: { type: 'text', hint: 'what to plan' } },
        macro,
      ]),
    ).toEqual([
      { name: 'web', description: 'Search', hint: 'query' },
      { name: 'plan', hint: 'what to plan' },
      { name: 'macro', raw: macro },
    ]);
  });
});

describe('the agent', () => {
  it('capabilities: what the app uses, a session capability by name when advertised (an empty object counts)', () => {
    expect(
      decodeCapabilities({
        loadSession: true,
        promptCapabilities: { image: true, audio: 'yes' },
        mcpCapabilities: { http: true },
        sessionCapabilities: { list: {}, fork: null, _acme_share: {} },
        auth: { logout: {} },
      }),
    ).toEqual({
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: false },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: ['list', '_acme_share'],
      auth: { logout: true },
    });
  });

  it('agent info: name, title and version when they are strings', () => {
    expect(decodeAgentInfo({ name: 'fx', title: 'Fixture', version: 3 })).toEqual({ name: 'fx', title: 'Fixture' });
  });
});

describe('usage and background work', () => {
  it('context usage: a cost needs an amount and a currency', () => {
    expect(decodeContextUsage({ used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } })).toEqual({
      used: 10,
      size: 100,
      cost: { amount: 0.5, currency: 'USD' },
    });
    expect(decodeContextUsage({ used: 10, cost: { amount: 1 } })).toEqual({ used: 10, cost: null });
  });

  it('turn usage: the parts add up to a total when none is sent; nothing numeric is none', () => {
    expect(decodeTurnUsage({ inputTokens: 10, outputTokens: 5, thoughtTokens: 2 })).toEqual({
      totalTokens: 15,
      inputTokens: 10,
      outputTokens: 5,
      thoughtTokens: 2,
    });
    expect(decodeTurnUsage({ totalTokens: 'many' })).toBeNull();
  });

  it('background work: tool calls and terminals typed, another type kept raw; no list is none', () => {
    expect(
      decodeBackground([
        { type: 'tool_call', toolCallId: 'tc' },
        { type: 'terminal', terminalId: 't1' },
        { type: '_x_job', id: 7 },
      ]),
    ).toEqual([
      { type: 'tool_call', toolCallId: 'tc' },
      { type: 'terminal', terminalId: 't1' },
      { type: 'unknown', typeName: '_x_job', raw: { type: '_x_job', id: 7 } },
    ]);
    expect(decodeBackground(undefined)).toBeNull();
  });
});

describe('questions, permission subjects, sign-in methods', () => {
  const schema = { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] };

  it('a form keeps its schema (for validation) and its fields; a URL its address; another mode what was sent', () => {
    expect(decodeElicitationRequest({ sessionId: 's', mode: 'form', message: 'Who?', requestedSchema: schema })).toMatchObject({
      sessionId: 's',
      mode: 'form',
      message: 'Who?',
      requestedSchema: schema,
      fields: [{ kind: 'text', key: 'name', title: 'Name', required: true }],
    });
    // No mode is a form (rfds-elicitation).
    expect(decodeElicitationRequest({ message: 'Hi' })).toMatchObject({ mode: 'form', requestedSchema: null, fields: [] });
    expect(decodeElicitationRequest({ requestId: 12, mode: 'url', url: 'https://x.test', elicitationId: 'e1' })).toEqual({
      requestId: 12,
      mode: 'url',
      message: null,
      url: 'https://x.test',
      elicitationId: 'e1',
    });
    const future = { mode: '_x_voice', message: 'Say it' };
    expect(decodeElicitationRequest(future)).toEqual({ mode: 'unknown', modeName: '_x_voice', message: 'Say it', raw: future });
  });

  it("an answer's content is an object of JSON values, anything else none", () => {
    expect(decodeElicitationContent({ name: 'acme', tags: ['a'] })).toEqual({ name: 'acme', tags: ['a'] });
    expect(decodeElicitationContent('acme')).toBeUndefined();
  });

  it('permission subjects: a tool call (by its id), a command, another type kept raw', () => {
    expect(decodePermissionSubject({ type: 'tool_call', toolCall: { toolCallId: 'tc', title: 'Edit' } })).toEqual({ type: 'tool_call', toolCallId: 'tc' });
    expect(decodePermissionSubject({ type: 'command', command: 'npm test', cwd: '/w' })).toEqual({ type: 'command', command: 'npm test', cwd: '/w' });
    expect(decodePermissionSubject({ type: '_x_door', door: 'pod bay' })).toEqual({
      type: 'unknown',
      typeName: '_x_door',
      raw: { type: '_x_door', door: 'pod bay' },
    });
    expect(decodePermissionSubject(null)).toBeNull();
  });

  it('sign-in methods: v2 `methodId`, env vars and their link, terminal args and env (v1 object or v2 pairs), an unknown type kept raw', () => {
    expect(
      decodeAuthMethod({ methodId: 'key', name: 'API key', type: 'env_var', vars: [{ name: 'KEY' }, { label: 'no name' }], link: 'https://x.test/keys' }),
    ).toMatchObject({
      id: 'key',
      type: 'env_var',
      vars: [{ name: 'KEY', label: 'KEY', secret: true, optional: false }],
      link: 'https://x.test/keys',
    });
    expect(decodeAuthMethod({ id: 't', type: 'terminal', args: ['--login'], env: [{ name: 'A', value: '1' }] })).toMatchObject({
      args: ['--login'],
      env: { A: '1' },
    });
    expect(decodeAuthMethod({ id: 't', type: 'terminal', env: { B: '2', C: 3 } })).toMatchObject({ args: [], env: { B: '2' } });
    expect(decodeAuthMethod({ id: 'a' })).toMatchObject({ id: 'a', name: 'a', type: 'agent' });
    const future = { id: 'f', name: 'Future', type: 'x_future_auth', how: 'magic' };
    expect(decodeAuthMethod(future)).toEqual({ id: 'f', name: 'Future', description: null, type: 'x_future_auth', raw: future });
  });
});

/** Wire values of every kind, known, unknown and `_`, as agents (and older logs) send them. */
const wire: [string, (value: unknown) => unknown, unknown][] = [
  ['config options', decodeConfigOptions, [select, boolean, slider, { id: 'x', type: '_acme_knob' }, { name: 'no type' }]],
  ['modes', decodeModes, { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask', description: 'Asks' }] }],
  ['models', decodeModels, { currentModelId: null, availableModels: [{ modelId: 'm' }] }],
  [
    'commands',
    decodeCommands,
    [
      { name: 'web', input: { hint: 'q' } },
      { type: 'command', name: 'p' },
      { type: '_x_macro', name: 'macro' },
    ],
  ],
  ['capabilities', decodeCapabilities, { loadSession: true, sessionCapabilities: { list: {}, _x: true }, auth: { logout: {} } }],
  ['agent info', decodeAgentInfo, { name: 'fx', version: '1' }],
  ['context usage', decodeContextUsage, { used: 1, size: 2, cost: { amount: 1, currency: 'EUR' } }],
  ['turn usage', decodeTurnUsage, { inputTokens: 1, outputTokens: 2 }],
  ['background', decodeBackground, [{ type: 'tool_call', toolCallId: 'a' }, { type: '_x_job' }, { noType: true }]],
  ['form question', decodeElicitationRequest, { sessionId: 's', toolCallId: 'tc', mode: 'form', requestedSchema: schemaOf() }],
  ['url question', decodeElicitationRequest, { requestId: 3, mode: 'url', url: 'https://x.test' }],
  ['unknown question', decodeElicitationRequest, { mode: '_x_voice', message: 'Say' }],
  ['question whose mode is literally "unknown"', decodeElicitationRequest, { mode: 'unknown' }],
  ['command subject', decodePermissionSubject, { type: 'command', command: 'ls', toolCallId: 'tc' }],
  ['tool call subject', decodePermissionSubject, { type: 'tool_call', toolCall: { toolCallId: 'tc' } }],
  ['unknown subject', decodePermissionSubject, { type: '_x_door', door: 1 }],
  ['env var method', decodeAuthMethod, { methodId: 'k', type: 'env_var', vars: [{ name: 'K', secret: false }], link: 'https://x.test' }],
  ['terminal method', decodeAuthMethod, { id: 't', type: 'terminal', args: ['a'], env: [{ name: 'A', value: '1' }] }],
  ['unknown method', decodeAuthMethod, { id: 'f', type: 'x_future_auth' }],
  ['tool capabilities', decodeToolCapabilities, { cancel: {} }],
  ['error', decodeWireError, { code: -32602, message: 'bad', data: { x: 1 } }],
];

function schemaOf() {
  return { type: 'object', properties: { n: { type: 'number', minimum: 1 }, f: { type: 'x_future' } } };
}

describe('decoders are idempotent (old logs hold wire values, new ones decoded values: both are read the same way)', () => {
  for (const [what, decode, value] of wire) {
    it(what, () => {
      const once = decode(value);
      expect(decode(JSON.parse(JSON.stringify(once)))).toEqual(once);
    });
  }
});

describe('bad input never throws', () => {
  const junk = [undefined, null, 0, 'x', true, [], [null, 1, 'a'], {}, { type: 7 }, { options: 'no' }, { vars: {}, env: 5, availableModes: {} }];
  for (const [what, decode] of wire) {
    it(what, () => {
      for (const value of junk) expect(() => decode(value)).not.toThrow();
    });
  }
});

describe('events from an older log', () => {
  it('the raw control values of each event kind are decoded; an event of today passes unchanged', () => {
    const base = { sessionId: 's', seq: 1, ts: 0 };
    const connected = {
      ...base,
      kind: 'session.connected',
      acpSessionId: 'a',
      how: 'new',
      configOptions: [boolean],
      modes: { currentModeId: 'ask', availableModes: [] },
      capabilities: { loadSession: true },
      agentInfo: { name: 'fx' },
    };
    const upgraded = decodeEventControls(connected);
    expect(upgraded).toMatchObject({
      configOptions: [{ id: 'web', type: 'boolean', currentValue: true }],
      capabilities: { loadSession: true, sessionCapabilities: [] },
      agentInfo: { name: 'fx' },
    });
    expect(decodeEventControls(upgraded)).toEqual(upgraded);
    expect(decodeEventControls({ ...base, kind: 'turn.ended', turnId: 't', stopReason: 'end_turn', usage: { totalTokens: 3, x: 1 } })).toMatchObject({
      usage: { totalTokens: 3 },
    });
    expect(
      decodeEventControls({ ...base, kind: 'auth.required', methods: [{ id: 'a', name: 'A', type: 'agent', raw: { id: 'a', name: 'A' } }] }),
    ).toMatchObject({
      methods: [{ id: 'a', name: 'A', type: 'agent', raw: { id: 'a', name: 'A' } }],
    });
    expect(decodeEventControls({ ...base, kind: 'tool.updated', toolCallId: 'tc', fields: { capabilities: { cancel: {} } } })).toMatchObject({
      fields: { capabilities: { cancel: true } },
    });
    const chunk = { ...base, kind: 'message.chunk', role: 'agent', content: { type: 'text', text: 'hi' } };
    expect(decodeEventControls(chunk)).toBe(chunk);
  });
});
