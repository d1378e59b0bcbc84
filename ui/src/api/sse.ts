import { api, payload } from './client';

/** One event of GET /events (DECISIONS.md §10): `event:` is the channel, `data:` an envelope. */
export interface LiveEvent {
  readonly channel: string;
  readonly data: { meta?: { id?: string | null; message?: string }; payload?: Record<string, unknown> };
}

/**
 * The event stream. EventSource cannot send a header, so each connection first asks for a one-time
 * ticket (POST /events/ticket) and passes that: the token never appears in a URL. On an error the
 * browser's EventSource would reuse the spent ticket, so the stream is closed and reopened with a fresh
 * one after a pause; `onStatus` lets screens fall back to polling meanwhile.
 */
export function openEventStream(
  channels: readonly string[],
  onEvent: (event: LiveEvent) => void,
  onStatus: (connected: boolean) => void,
): () => void {
  let source: EventSource | null = null;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    try {
      const ticket = payload(await api.POST('/events/ticket'), 'EventTicket');
      if (stopped) return;
      const url = new URL('/events', window.location.origin);
      url.searchParams.set('ticket', ticket.ticket);
      source = new EventSource(url);
      source.onopen = () => onStatus(true);
      for (const channel of channels) {
        source.addEventListener(channel, (message) => {
          try {
            onEvent({
              channel,
              data: JSON.parse((message as MessageEvent<string>).data) as LiveEvent['data'],
            });
          } catch {
            // A malformed event is skipped; the next one still arrives.
          }
        });
      }
      source.onerror = () => {
        source?.close();
        onStatus(false);
        schedule();
      };
    } catch {
      onStatus(false);
      schedule();
    }
  };
  const schedule = () => {
    if (!stopped) retry = setTimeout(() => void connect(), 3_000);
  };
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
}
