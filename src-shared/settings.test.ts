import { describe, expect, it } from 'vitest';
import { parseSettings } from './settings';

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
