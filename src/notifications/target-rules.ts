import type { CheckedBody } from '../shared/body-check.js';
import type { TargetInput } from './notification.js';
import type { NotificationTargetBody } from './notification.api.js';

const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

/**
 * The target's input, or undefined when a check failed (each failure is in the body's collector): a
 * webhook's URL is an absolute http(s) URL without credentials (as a repository view's URI: DECISIONS.md
 * §15 gives outbound addresses the views' policy), an e-mail target's address is one address, and no event
 * is named twice.
 */
export function targetInputOf(body: CheckedBody<NotificationTargetBody>): TargetInput | undefined {
  const { collector } = body;
  const kind = body.get('kind');
  let url: string | null = null;
  let address: string | null = null;
  if (kind === 'WEBHOOK') url = webhookUrl(body);
  if (kind === 'EMAIL') {
    const raw = body.get('address')?.trim();
    if (raw === undefined || raw === '')
      collector.add('address', 'required', 'An e-mail notification target requires an address');
    else if (!ADDRESS.test(raw))
      collector.add('address', 'pattern', "A notification target's address must be an e-mail address");
    else address = raw;
  }
  const events = body.get('events');
  if (events?.length === 0)
    collector.add('events', 'required', 'A notification target requires at least one event');
  else if (events !== undefined && new Set(events).size !== events.length)
    collector.add('events', 'pattern', "A notification target's events must not name an event twice");
  const name = body.get('name');
  if (!collector.isValid || kind === undefined || name === undefined || events === undefined)
    return undefined;
  return {
    name,
    kind,
    url,
    address,
    events: events,
    repositoryViewId: body.get('repositoryViewId') ?? null,
  };
}

function webhookUrl(body: CheckedBody<NotificationTargetBody>): string | null {
  const { collector } = body;
  const raw = body.get('url')?.trim();
  if (raw === undefined || raw === '') {
    collector.add('url', 'required', 'A webhook notification target requires a url');
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    collector.add('url', 'pattern', "A notification target's url must be an absolute http(s) URL");
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    collector.add('url', 'pattern', "A notification target's url must be an absolute http(s) URL");
    return null;
  }
  if (url.username !== '' || url.password !== '') {
    collector.add('url', 'pattern', "A notification target's url must not contain credentials");
    return null;
  }
  return url.href;
}
