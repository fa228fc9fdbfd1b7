import { describe, expect, it } from 'vitest';
import { parseSettings, protocolFor, withAgentProtocol } from './settings';

describe('parseSettings', () => {
  it('reads custom agents with defaults for args and env', () => {
    const { settings, error } = parseSettings(JSON.stringify({ agents: [{ id: 'a', name: 'A', command: 'run-a' }] }));
    expect(error).toBeNull();
    expect(settings.agents).toEqual([{ id: 'a', name: 'A', command: 'run-a', args: [], env: {} }]);
    expect(settings.theme).toBe('system');
  });

  it('names the problem in invalid JSON and falls back to defaults', () => {
    const { settings, error } = parseSettings('{ "agents": [ }');
    expect(error).toMatch(/settings\.json is not valid JSON/);
    expect(settings.agents).toEqual([]);
  });

  it('names the path of a bad field and keeps every valid part', () => {
    const { settings, error } = parseSettings(
      JSON.stringify({
        theme: 'dark',
        agents: [
          { id: 'good', name: 'Good', command: 'good' },
          { id: 'bad', name: 'Bad' },
        ],
      }),
    );
    expect(error).toContain('agents[1].command');
    expect(settings.agents.map((a) => a.id)).toEqual(['good']);
    expect(settings.theme).toBe('dark');
  });

  it('keeps keys this version does not know', () => {
    const { settings } = parseSettings(JSON.stringify({ futureKey: { x: 1 } }));
    expect((settings as Record<string, unknown>).futureKey).toEqual({ x: 1 });
  });
});

describe('per-agent protocol setting', () => {
  it('defaults to v1 and reads custom agents and overrides', () => {
    const { settings, error } = parseSettings(
      JSON.stringify({ agents: [{ id: 'a', name: 'A', command: 'a', protocol: 'auto' }], agentOverrides: { gemini: { protocol: 'v2' } } }),
    );
    expect(error).toBeNull();
    expect(protocolFor(settings, 'a')).toBe('auto');
    expect(protocolFor(settings, 'gemini')).toBe('v2');
    expect(protocolFor(settings, 'other')).toBe('v1');
  });

  it('a misspelt protocol is reported with its path and loses neither the agent nor the override', () => {
    const { settings, error } = parseSettings(
      JSON.stringify({ agents: [{ id: 'a', name: 'A', command: 'a', protocol: 'v3' }], agentOverrides: { gemini: { args: ['--x'], protocol: 'two' } } }),
    );
    expect(error).toContain('agents[0].protocol');
    expect(settings.agents.map((agent) => agent.id)).toEqual(['a']);
    expect(protocolFor(settings, 'a')).toBe('v1');
    expect(settings.agentOverrides.gemini?.args).toEqual(['--x']);
    expect(protocolFor(settings, 'gemini')).toBe('v1');
  });

  it('the protocol chosen in the settings page lands on the custom agent, else in its override, keeping everything else', () => {
    const json = { agents: [{ id: 'a', name: 'A', command: 'a' }], agentOverrides: { gemini: { args: ['--x'] } }, theme: 'dark', future: 1 };
    const next = withAgentProtocol(withAgentProtocol(withAgentProtocol(json, 'a', 'auto'), 'gemini', 'v2'), 'codex', 'auto');
    const { settings, error } = parseSettings(JSON.stringify(next));
    expect(error).toBeNull();
    expect(protocolFor(settings, 'a')).toBe('auto');
    expect(protocolFor(settings, 'gemini')).toBe('v2');
    expect(protocolFor(settings, 'codex')).toBe('auto');
    expect(settings.agentOverrides.gemini?.args).toEqual(['--x']);
    expect(settings.agentOverrides.a).toBeUndefined();
    expect(next).toMatchObject({ theme: 'dark', future: 1 });
  });
});
