import { isRole } from '../auth/roles.js';
import type { EventAction, EventAudience, ServiceEvent } from './event-bus.js';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. An event whose wire form would not fit is
 * sent without its payload, and its message says so: the client reads the entity through the API (it
 * knows which from the channel and `meta.id`). The rule applies on SQLite too, so an event looks the
 * same whichever database the service runs on. Storing large payloads instead would need a table and a
 * clean-up for what is, in practice, a schema with very many properties.
 */
export const MAX_WIRE_BYTES = 7_900;

export const PAYLOAD_LEFT_OUT = 'payload left out (too large for an event): read it through the API';

/** What one NOTIFY carries: the publishing instance (it delivers its own events itself) and the event. */
interface WireMessage {
  readonly origin: string;
  readonly event: ServiceEvent;
}

/** The NOTIFY text of an event (payload left out when too large); undefined when even that does not fit. */
export function toWire(origin: string, event: ServiceEvent): string | undefined {
  const text = JSON.stringify({ origin, event } satisfies WireMessage);
  if (Buffer.byteLength(text) <= MAX_WIRE_BYTES) return text;
  const smaller = JSON.stringify({ origin, event: withoutPayload(event) } satisfies WireMessage);
  return Buffer.byteLength(smaller) <= MAX_WIRE_BYTES ? smaller : undefined;
}

/** The event as every instance delivers it: the same size rule as `toWire`. */
export function fitted(event: ServiceEvent): ServiceEvent {
  return Buffer.byteLength(JSON.stringify({ origin: ORIGIN_SIZE, event })) <= MAX_WIRE_BYTES
    ? event
    : withoutPayload(event);
}

/** An origin id's length (a UUID) as counted by `fitted`. */
const ORIGIN_SIZE = '00000000-0000-0000-0000-000000000000';

function withoutPayload(event: ServiceEvent): ServiceEvent {
  return { ...event, payload: {}, message: `${event.message}; ${PAYLOAD_LEFT_OUT}` };
}

/** Reads a NOTIFY text; undefined for anything that is not an event of ours (never throws). */
export function fromWire(text: string): { origin: string; event: ServiceEvent } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.origin !== 'string' || !isObject(value.event)) return undefined;
  const { channel, action, id, message, payload, audience } = value.event;
  if (
    typeof channel !== 'string' ||
    !isAction(action) ||
    typeof id !== 'string' ||
    typeof message !== 'string' ||
    !isObject(payload) ||
    !isAudience(audience)
  )
    return undefined;
  return { origin: value.origin, event: { channel, action, id, message, payload, audience } };
}

const ACTIONS: readonly EventAction[] = ['CREATE', 'UPDATE', 'DELETE', 'PROGRESS'];

function isAction(value: unknown): value is EventAction {
  return ACTIONS.some((action) => action === value);
}

function isAudience(value: unknown): value is EventAudience {
  if (!isObject(value)) return false;
  switch (value.kind) {
    case 'admin':
      return value.userId === undefined || typeof value.userId === 'number';
    case 'view':
      return (
        typeof value.viewId === 'number' &&
        (value.curatorIds === undefined ||
          (Array.isArray(value.curatorIds) && value.curatorIds.every((id) => typeof id === 'number')))
      );
    case 'role':
      return isRole(value.role);
    case 'signedIn':
      return true;
    default:
      return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
