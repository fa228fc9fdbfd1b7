import { expect, it } from 'vitest';
import { describeTurnUsage, sessionTurnUsage } from './turnUsage';
import { decodeTurnUsage as turnUsage } from '../../src-main/acp/decode/controls';

it("reads a turn's usage, and none when the agent reported none or nothing numeric", () => {
  expect(turnUsage({ totalTokens: 1200, inputTokens: 1000, outputTokens: 200 })).toEqual({ totalTokens: 1200, inputTokens: 1000, outputTokens: 200 });
  expect(turnUsage({ inputTokens: 10, outputTokens: 5 })).toEqual({ totalTokens: 15, inputTokens: 10, outputTokens: 5 });
  expect(turnUsage(null)).toBeNull();
  expect(turnUsage({ totalTokens: 'many' })).toBeNull();
});

it('adds up the turns that reported usage into the session totals', () => {
  const entries = [
    { kind: 'user' },
    { kind: 'stop', usage: { totalTokens: 1200, inputTokens: 1000, outputTokens: 200 } },
    { kind: 'stop', usage: null },
    { kind: 'stop', usage: { totalTokens: 300, inputTokens: 250, outputTokens: 50, thoughtTokens: 20 } },
  ];
  expect(sessionTurnUsage(entries)).toEqual({ totalTokens: 1500, inputTokens: 1250, outputTokens: 250, thoughtTokens: 20, turns: 2 });
  expect(sessionTurnUsage([{ kind: 'stop' }])).toBeNull();
});

it('describes usage for a person', () => {
  expect(describeTurnUsage({ totalTokens: 1200, inputTokens: 1000, outputTokens: 200 })).toBe('1,200 tokens (1,000 in · 200 out)');
  expect(describeTurnUsage({ totalTokens: 7 })).toBe('7 tokens');
});
