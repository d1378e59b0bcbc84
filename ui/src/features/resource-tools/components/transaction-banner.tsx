import type { ResourceRef } from '../../../api/context-uri';

/**
 * STUB (helper C): `Start transaction` outside a transaction; inside one, a banner with a live countdown
 * (polite live region speaking at thresholds), refresh, `Commit` and `Roll back`.
 */
export function TransactionBanner(_props: {
  resource: ResourceRef;
  onTxChange: (tx: string | undefined) => void;
}) {
  return null;
}
