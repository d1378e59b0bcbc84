import { describe, expect, it } from 'vitest';
import { AudienceCheck } from './event-audience.js';
import type { EventAudience, ServiceEvent } from './event-bus.js';
import { EventHub, type DeliveredEvent } from './event-hub.js';
import { fitted, fromWire, MAX_WIRE_BYTES, PAYLOAD_LEFT_OUT, toWire } from './event-wire.js';

const event = (id: string, payload: Record<string, unknown> = {}): ServiceEvent => ({
  channel: 'schema',
  action: 'CREATE',
  id,
  message: 'Schema created',
  payload,
  audience: { kind: 'signedIn' },
});

describe('EventHub', () => {
  it('gives increasing ids, replays what came after an id, and hands live events to listeners', () => {
    let now = 1_000;
    const hub = new EventHub({ maxEvents: 10, maxAgeMs: 60_000 }, () => now);
    const first = hub.deliver(event('1'));
    const second = hub.deliver(event('2'));
    expect(second.id).toBeGreaterThan(first.id);
    now += 5_000;
    const third = hub.deliver(event('3'));
    expect(third.id).toBeGreaterThan(second.id);

    const live: DeliveredEvent[] = [];
    const subscription = hub.subscribe((delivered) => live.push(delivered), first.id);
    expect(subscription.missed.map((d) => d.event.id)).toEqual(['2', '3']);
    hub.deliver(event('4'));
    expect(live.map((d) => d.event.id)).toEqual(['4']);
    subscription.unsubscribe();
    hub.deliver(event('5'));
    expect(live).toHaveLength(1);
    expect(hub.subscribe(() => undefined).missed).toEqual([]);
  });

  it('keeps at most maxEvents, none older than maxAgeMs', () => {
    let now = 0;
    const hub = new EventHub({ maxEvents: 3, maxAgeMs: 1_000 }, () => now);
    const ids = ['a', 'b', 'c', 'd'].map((id) => hub.deliver(event(id)).id);
    expect(hub.subscribe(() => undefined, 0).missed.map((d) => d.event.id)).toEqual(['b', 'c', 'd']);
    now = 1_500;
    hub.deliver(event('e'));
    expect(hub.subscribe(() => undefined, ids[0]).missed.map((d) => d.event.id)).toEqual(['e']);
  });

  it('starts its ids from the clock, so ids from before a restart are older', () => {
    const before = new EventHub(undefined, () => 1_000).deliver(event('x')).id;
    const after = new EventHub(undefined, () => 2_000).deliver(event('y')).id;
    expect(after).toBeGreaterThan(before);
  });

  it('still delivers to the other listeners when one throws', () => {
    const hub = new EventHub();
    const seen: string[] = [];
    hub.subscribe(() => {
      throw new Error('broken listener');
    });
    hub.subscribe((delivered) => seen.push(delivered.event.id));
    hub.deliver(event('1'));
    expect(seen).toEqual(['1']);
  });
});

describe('event wire form (NOTIFY payloads)', () => {
  it('round-trips an event and refuses anything else', () => {
    const text = toWire('origin-1', event('7', { Schema: { id: 7 } }));
    expect(fromWire(text ?? '')).toEqual({ origin: 'origin-1', event: event('7', { Schema: { id: 7 } }) });
    for (const bad of [
      'not json',
      '[]',
      '{"origin":"o"}',
      JSON.stringify({ origin: 'o', event: { ...event('1'), action: 'EXPLODE' } }),
      JSON.stringify({
        origin: 'o',
        event: { ...event('1'), audience: { kind: 'role', role: 'ROLE_ROOT' } },
      }),
      JSON.stringify({ origin: 'o', event: { ...event('1'), audience: { kind: 'view', viewId: '1' } } }),
    ])
      expect(fromWire(bad), bad).toBeUndefined();
  });

  it('leaves out a payload too large for a notification, the same way on every instance, and says so', () => {
    const large = event('9', { Schema: { properties: 'x'.repeat(MAX_WIRE_BYTES) } });
    const text = toWire('00000000-0000-0000-0000-000000000000', large) ?? '';
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_WIRE_BYTES);
    const sent = fromWire(text)?.event;
    expect(sent?.payload).toEqual({});
    expect(sent?.message).toBe(`Schema created; ${PAYLOAD_LEFT_OUT}`);
    expect(fitted(large)).toEqual(sent);
    expect(fitted(event('1', { small: true }))).toEqual(event('1', { small: true }));
  });
});

describe('AudienceCheck', () => {
  const curators = new Map([[5, [20]]]);
  const check = new AudienceCheck((viewId) => Promise.resolve(curators.get(viewId)));
  const admin = { userId: 1, role: 'ROLE_ADMIN' } as const;
  const curator = { userId: 20, role: 'ROLE_CURATOR' } as const;
  const otherCurator = { userId: 21, role: 'ROLE_CURATOR' } as const;
  const user = { userId: 30, role: 'ROLE_USER' } as const;
  const cases: [EventAudience, boolean[]][] = [
    // admin, curator, other curator, user
    [{ kind: 'admin' }, [true, false, false, false]],
    [{ kind: 'admin', userId: 30 }, [true, false, false, true]],
    [{ kind: 'view', viewId: 5 }, [true, true, false, false]],
    [{ kind: 'view', viewId: 6, curatorIds: [21] }, [true, false, true, false]],
    [{ kind: 'view', viewId: 5, curatorIds: [30] }, [true, true, false, false]],
    [{ kind: 'role', role: 'ROLE_CURATOR' }, [true, true, true, false]],
    [{ kind: 'signedIn' }, [true, true, true, true]],
  ];
  it.each(cases)('%j', async (audience, expected) => {
    const answers = await Promise.all(
      [admin, curator, otherCurator, user].map((reader) => check.allows(reader, audience)),
    );
    expect(answers).toEqual(expected);
  });
});
