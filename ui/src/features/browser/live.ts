import { useQueryClient } from '@tanstack/react-query';
import { contextKeys } from '../../api/context-uri';
import { useEventChannels } from '../../app/live-events';

/**
 * A resource of the view changed through the service (another curator, a job, a SPARQL update):
 * every context of the view is refetched, so the change shows without a reload.
 */
export function useLiveContexts(viewId: number): { connected: boolean } {
  const queryClient = useQueryClient();
  return useEventChannels([`context/${viewId}`], () => {
    void queryClient.invalidateQueries({ queryKey: contextKeys.view(viewId) });
  });
}
