/**
 * The Fedora lines the FEDORA view type speaks (DECISIONS.md §6, `fedora-api.md` §1): 4.x (ModeShape;
 * transactions in the path, labelled versions), 5.x (Memento versions, transactions in the path) and
 * 6.x/7.x (`Atomic-ID` transactions, Memento over OCFL). Shared by the adapter (which speaks them) and
 * the embedded repository (which can answer as each, a compatibility and test mode).
 */
export type FedoraDialect = 'FEDORA_4' | 'FEDORA_5' | 'FEDORA_6';

export const FEDORA_DIALECTS: readonly FedoraDialect[] = ['FEDORA_4', 'FEDORA_5', 'FEDORA_6'];

export function isFedoraDialect(value: unknown): value is FedoraDialect {
  return FEDORA_DIALECTS.some((dialect) => dialect === value);
}

/** What dialect detection can find: a Fedora line, or a Linked Data Platform server that is no Fedora. */
export type DetectedDialect = FedoraDialect | 'LDP';

export function isDetectedDialect(value: unknown): value is DetectedDialect {
  return value === 'LDP' || isFedoraDialect(value);
}
