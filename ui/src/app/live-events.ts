import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { openEventStream, type LiveEvent } from '../api/sse';

/**
 * Listens to some channels of GET /events while the calling screen is shown. `connected` is false while
 * the stream is down, so a screen can poll instead (style-anchors §6, rule 8).
 */
export function useEventChannels(
  channels: readonly string[],
  onEvent: (event: LiveEvent) => void,
  enabled = true,
): { connected: boolean } {
  const [connected, setConnected] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = channels.join('\n');
  useEffect(() => {
    if (!enabled) return undefined;
    return openEventStream(
      key.split('\n'),
      (event) => handler.current(event),
      (up) => setConnected(up),
    );
  }, [key, enabled]);
  return { connected };
}

/**
 * The key root each feature's key factory starts with, for the channels every screen cares about: a
 * view, schema or user changed by anyone refreshes the lists that show it.
 */
const ROOT_OF_CHANNEL: Readonly<Record<string, string>> = {
  'repository-view': 'repository-views',
  schema: 'schemas',
  user: 'users',
};

/** Mounted once by the app layout. */
export function useLiveEvents(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEventChannels(
    Object.keys(ROOT_OF_CHANNEL),
    (event) => {
      const root = ROOT_OF_CHANNEL[event.channel];
      // A key root, not one query: every list and detail of that feature.
      // eslint-disable-next-line @tanstack/query/prefer-query-options
      if (root !== undefined) void queryClient.invalidateQueries({ queryKey: [root] });
    },
    enabled,
  );
}
