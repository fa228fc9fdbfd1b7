import { describe, expect, it } from 'vitest';
import { gatedControls, type GatedInput } from './gatedControls';
import { decodeCapabilities, decodeConfigOptions } from '../../src-main/acp/decode/controls';

const row = (input: GatedInput, control: RegExp) => {
  const found = gatedControls(input).find((r) => control.test(r.control));
  if (!found) throw new Error(`no row ${control}`);
  return found;
};

const v1Caps = {
  loadSession: true,
  promptCapabilities: { image: true, audio: false, embeddedContext: true },
  mcpCapabilities: { http: true, sse: false },
  sessionCapabilities: { list: {}, fork: {} },
  auth: { logout: {} },
};

describe('gatedControls', () => {
  it('lists every capability-gated control the issue names, each with the capability that enables it', () => {
    const controls = gatedControls({ capabilities: decodeCapabilities(v1Caps), protocolVersion: 1, known: true, session: { modes: true, configOptions: [] } });
    const names = controls.map((r) => r.control).join('\n');
    for (const what of [
      /past session/,
      /Resume/,
      /Fork/,
      /List/,
      /Close/,
      /Delete/,
      /Mode picker/,
      /Model picker/,
      /On\/off/,
      /images/,
      /audio/,
      /embedded context/,
      /Terminals/,
      /files through the app/,
      /Forms and links/,
      /Sign out/,
      /MCP servers over stdio/,
      /MCP servers over HTTP/,
      /MCP servers over SSE/,
    ])
      expect(names).toMatch(what);
    expect(controls.every((r) => r.capability.length > 0)).toBe(true);
  });

  it("answers from what this agent advertised: a v1 agent's capabilities and its session's answer", () => {
    const input: GatedInput = {
      capabilities: decodeCapabilities(v1Caps),
      protocolVersion: 1,
      known: true,
      session: { modes: true, configOptions: decodeConfigOptions([{ type: 'boolean' }]) },
    };
    expect(row(input, /past session/)).toMatchObject({ capability: 'agentCapabilities.loadSession', available: true });
    expect(row(input, /Fork/).available).toBe(true);
    expect(row(input, /Delete/)).toMatchObject({ capability: 'sessionCapabilities.delete', available: false });
    expect(row(input, /audio/).available).toBe(false);
    expect(row(input, /Sign out/).available).toBe(true);
    expect(row(input, /MCP servers over SSE/).available).toBe(false);
    expect(row(input, /Mode picker/).available).toBe(true);
    expect(row(input, /On\/off/).available).toBe(true);
    // "There is no model picker": options, but none of a model category.
    expect(row(input, /Model picker/).note).toMatch(/no model picker/);
  });

  it('counts a model_config option as the model picker', () => {
    const input: GatedInput = {
      capabilities: decodeCapabilities(v1Caps),
      known: true,
      session: { modes: false, configOptions: decodeConfigOptions([{ type: 'select', category: 'model_config' }]) },
    };
    expect(row(input, /Model picker/).note).toMatch(/a model picker among them/);
  });

  it('says what ACP v2 removed (modes, client terminals and file system, MCP over SSE)', () => {
    const input: GatedInput = {
      capabilities: decodeCapabilities({ ...v1Caps, mcpCapabilities: { http: true, sse: true } }),
      protocolVersion: 2,
      known: true,
      session: { modes: true, configOptions: [] },
    };
    expect(row(input, /Mode picker/).available).toBe(false);
    expect(row(input, /Terminals/)).toMatchObject({ available: false, note: 'ACP v2 has no client terminals' });
    expect(row(input, /files through the app/).available).toBe(false);
    expect(row(input, /MCP servers over SSE/).available).toBe(false);
  });

  it('before the agent has run, nothing it advertises is known', () => {
    const controls = gatedControls({ capabilities: null, known: false });
    expect(controls.filter((r) => r.source !== 'app').every((r) => !r.available && r.note === 'not known until the agent has started')).toBe(true);
  });
});
