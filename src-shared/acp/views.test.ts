import { describe, expect, it } from 'vitest';
import {
  decodeAgentInfo,
  decodeCapabilities as capabilitiesOf,
  decodeCapabilitiesOrNull,
  decodeContextUsage as usageView,
  decodeInitializeMeta,
} from '../../src-main/acp/decode/controls';
import { canReconnect } from '../../src-main/sessions/sessionConnect';
import { acpErrorView } from './error';
import { decodeV1Update } from '../../src-main/acp/decode/v1Update';

describe('decoders read what they know; wrong types read as absent', () => {
  it('usage: a cost counts only with a numeric amount and a currency; the rest reads as absent', () => {
    expect(usageView({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } })).toMatchObject({
      used: 10,
      size: 100,
      cost: { amount: 0.5, currency: 'USD' },
    });
    const odd = { used: '10', cost: { amount: '0.5', currency: 'USD' } };
    expect(usageView(odd)).toEqual({ used: undefined, size: undefined, cost: null });
  });

  it('errors: code, message and data from an agent error, an SDK error or nothing at all', () => {
    expect(acpErrorView({ code: -32000, message: 'Sign in', data: { x: 1 } })).toMatchObject({ code: -32000, message: 'Sign in', data: { x: 1 } });
    expect(acpErrorView(Object.assign(new Error('boom'), { code: -32601 }))).toMatchObject({ code: -32601, message: 'boom' });
    expect(acpErrorView('closed')).toEqual({ code: null, message: null, data: undefined, raw: 'closed' });
    expect(acpErrorView({ code: '-32000' }).code).toBeNull();
  });

  it('initialize: the objects the app keeps, null when absent or not objects', () => {
    const raw = { protocolVersion: 1, agentInfo: { name: 'a' }, agentCapabilities: 'yes', _meta: { build: 7 }, x_future: true };
    expect(decodeAgentInfo(raw.agentInfo)).toEqual({ name: 'a' });
    expect(decodeCapabilitiesOrNull(raw.agentCapabilities)).toBeNull();
    expect(decodeInitializeMeta(raw._meta)).toEqual({ build: 7 });
    expect(decodeAgentInfo(undefined)).toBeNull();
  });

  it('capabilities: logout and reconnecting read from one place (an empty object counts as advertised)', () => {
    expect(capabilitiesOf({ auth: { logout: {} } }).auth.logout).toBe(true);
    expect(capabilitiesOf({ auth: { logout: false } }).auth.logout).toBe(false);
    expect(capabilitiesOf(null).auth.logout).toBe(false);
    expect(canReconnect(capabilitiesOf({ loadSession: true }))).toBe(true);
    expect(canReconnect(capabilitiesOf({ sessionCapabilities: { resume: {} } }))).toBe(true);
    expect(canReconnect(capabilitiesOf({ sessionCapabilities: { resume: null }, loadSession: 'yes' }))).toBe(false);
  });

  it('update kinds: a future or extension kind is read as it came', () => {
    expect(decodeV1Update({ sessionUpdate: 'x_future_kind', a: 1 })).toEqual({
      kind: 'update.unknown',
      label: 'update x_future_kind',
      raw: { sessionUpdate: 'x_future_kind', a: 1 },
    });
    expect(decodeV1Update({ sessionUpdate: 3 })).toMatchObject({ kind: 'update.unknown', label: 'update (no kind)' });
  });
});
