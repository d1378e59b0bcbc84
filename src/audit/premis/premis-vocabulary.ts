import type { AuditAction } from '../audit-event.js';

/**
 * The Library of Congress preservation vocabularies PREMIS 3 draws its values from
 * (id.loc.gov/vocabulary/preservation/…): each term by its code (the last segment of its IRI) and its
 * authoritative label.
 */
export const LOC = 'http://id.loc.gov/vocabulary/preservation/';

export interface LocTerm {
  /** The vocabulary's name, as PREMIS XML's `authority` attribute gives it. */
  readonly vocabulary: string;
  readonly code: string;
  readonly label: string;
}

export const authorityUri = (term: LocTerm): string => `${LOC}${term.vocabulary}`;
export const valueUri = (term: LocTerm): string => `${LOC}${term.vocabulary}/${term.code}`;

const eventType = (code: string, label: string): LocTerm => ({ vocabulary: 'eventType', code, label });

const CREATION = eventType('cre', 'creation');
const INGESTION = eventType('ing', 'ingestion');
const MODIFICATION = eventType('mod', 'modification');
const DELETION = eventType('del', 'deletion');
const FIXITY_CHECK = eventType('fix', 'fixity check');
/**
 * A version (a memento) is an exact copy of the resource as it stood, kept beside it: "replication" ("the
 * act of creating an exact copy of an object") is the LoC term that says so; "creation" would claim a new
 * object, "capture" an acquisition from outside the repository.
 */
const REPLICATION = eventType('rep', 'replication');

/**
 * The PREMIS event type of each action on a repository resource. Metadata changes (by hand, by a job, a
 * revert, a restored version) are "modification" (the resource's triples are its content here, so not the
 * narrower "metadata modification"). Transactions are left out: the writes they held are events of their
 * own, and a commit acts on no one object; so are configuration changes and sign-ins (no object at all).
 */
export const EVENT_TYPES: Readonly<Partial<Record<AuditAction, LocTerm>>> = {
  'resource.create': CREATION,
  'binary.upload': INGESTION,
  'metadata.update': MODIFICATION,
  'metadata.revert': MODIFICATION,
  'version.restore': MODIFICATION,
  'job.apply': MODIFICATION,
  'job.undo': MODIFICATION,
  'resource.delete': DELETION,
  'version.delete': DELETION,
  'fixity.check': FIXITY_CHECK,
  'version.create': REPLICATION,
};

/** eventRelatedAgentRole: the person who made the change, and the service that carried it out. */
export const IMPLEMENTER: LocTerm = {
  vocabulary: 'eventRelatedAgentRole',
  code: 'imp',
  label: 'implementer',
};
export const EXECUTING_PROGRAM: LocTerm = {
  vocabulary: 'eventRelatedAgentRole',
  code: 'exe',
  label: 'executing program',
};

/** agentType. */
export const PERSON: LocTerm = { vocabulary: 'agentType', code: 'per', label: 'person' };
export const SOFTWARE: LocTerm = { vocabulary: 'agentType', code: 'sof', label: 'software' };

/** eventOutcome. */
export const SUCCESS: LocTerm = { vocabulary: 'eventOutcome', code: 'suc', label: 'success' };
export const FAILURE: LocTerm = { vocabulary: 'eventOutcome', code: 'fai', label: 'failure' };

/** cryptographicHashFunctions, by the algorithm named in a digest URN (`urn:sha-512:…`). */
const HASH_FUNCTIONS: Readonly<Record<string, LocTerm>> = {
  md5: { vocabulary: 'cryptographicHashFunctions', code: 'md5', label: 'MD5' },
  sha1: { vocabulary: 'cryptographicHashFunctions', code: 'sha1', label: 'SHA-1' },
  sha256: { vocabulary: 'cryptographicHashFunctions', code: 'sha256', label: 'SHA-256' },
  sha512: { vocabulary: 'cryptographicHashFunctions', code: 'sha512', label: 'SHA-512' },
};

export function hashFunction(algorithm: string): LocTerm | undefined {
  return HASH_FUNCTIONS[algorithm.toLowerCase().replace(/-/g, '')];
}
