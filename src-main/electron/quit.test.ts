import { describe, expect, it } from 'vitest';
import { confirmsQuit, quitDecision } from './quit';

describe('quitDecision', () => {
  it('quits without asking when nothing is running', () => {
    expect(quitDecision([])).toEqual({ kind: 'quit' });
    expect(quitDecision(['', '  '])).toEqual({ kind: 'quit' });
  });

  it('asks, naming what would stop, with Cancel as the default', () => {
    const decision = quitDecision(['A turn is running in “Fix the build”.']);
    expect(decision).toMatchObject({ kind: 'confirm', message: 'Quit while work is in progress?', buttons: ['Quit', 'Cancel'], defaultId: 1, cancelId: 1 });
    if (decision.kind !== 'confirm') throw new Error('expected a confirmation');
    expect(decision.detail).toContain('• A turn is running in “Fix the build”.');
    expect(decision.detail).toContain('Quitting stops every agent.');
  });

  it('counts several reasons and lists at most eight', () => {
    const reasons = Array.from({ length: 11 }, (_, i) => `Installing agent ${i}.`);
    const decision = quitDecision(reasons);
    if (decision.kind !== 'confirm') throw new Error('expected a confirmation');
    expect(decision.message).toBe('Quit while 11 things are in progress?');
    expect(decision.detail).toContain('Installing agent 7.');
    expect(decision.detail).not.toContain('Installing agent 8.');
    expect(decision.detail).toContain('…and 3 more');
  });

  it('quits only on the Quit button', () => {
    expect(confirmsQuit(0)).toBe(true);
    expect(confirmsQuit(1)).toBe(false);
  });
});
