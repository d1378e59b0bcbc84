import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ViewRef } from '../../api/context-uri';
import { versionCreatorsQuery } from './api';

/**
 * Who created each version of a resource, from its `version.create` events (`detail.version` is the
 * version's IRI, `detail.label` its label): a lookup by IRI, then by label. Empty while loading or when
 * the ledger cannot be read (the Versions list still shows, without names).
 */
export function useVersionCreators(
  view: ViewRef,
  contextUri: string,
  enabled: boolean,
): (version: { uri: string; name: string }) => string | undefined {
  const { data } = useQuery({ ...versionCreatorsQuery(view, contextUri), enabled });
  return useMemo(() => {
    const byUri = new Map<string, string>();
    const byLabel = new Map<string, string>();
    // Newest first: the first event naming a version is the one that created the version there now.
    for (const event of data ?? []) {
      if (event.username === null || event.outcome !== 'SUCCESS') continue;
      const { version, label } = event.detail;
      if (typeof version === 'string' && !byUri.has(version)) byUri.set(version, event.username);
      if (typeof label === 'string' && label !== '' && !byLabel.has(label))
        byLabel.set(label, event.username);
    }
    return ({ uri, name }) => byUri.get(uri) ?? byLabel.get(name);
  }, [data]);
}
