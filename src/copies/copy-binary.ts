import { namedNode, quad } from '../linked-data/rdf/terms.js';
import { PREMIS } from '../linked-data/rdf/vocab.js';
import { TargetExistsError } from '../repository-adapters/named-children.js';
import type {
  RepositoryAdapter,
  ResourceDescription,
  UploadDigest,
} from '../repository-adapters/repository-adapter.js';
import { UpstreamFailedError } from '../shared/errors.js';
import { heldDigest, type HeldDigest } from '../exports/repository-digest.js';
import type { DigestCheck } from './copy-items.store.js';
import {
  algorithmName,
  digesting,
  digestOf,
  parseStoredDigest,
  type StreamDigests,
} from './stream-digests.js';
import { uploadNamedBinary } from './target-writes.js';

/** How a copy's bytes compared on arrival. */
export interface ArrivalCheck {
  /** The algorithm compared with, as the report names it. */
  readonly algorithm: string;
  readonly check: DigestCheck;
  /** The two digests, for the message of a mismatch. */
  readonly expected: string;
  readonly found: string;
  /** The copy as described while checking it. */
  readonly there: ResourceDescription;
}

/** Where a binary is copied to and what it is sent as. */
export interface BinaryCopy {
  readonly sourceUri: string;
  /** The digest the source holds (`<algorithm>:<hex>`), sent with the upload where the target checks one. */
  readonly sourceDigest: string | null;
  readonly parentTargetUri: string;
  readonly name: string;
  readonly filename: string | null;
  readonly mediaType: string | null;
}

/**
 * Streams a binary from the source to the target at `<parent>/<name>`, hashing the bytes as they pass
 * (never held whole). `write` wraps the upload (the job's actor). Answers the created IRI and the digests of
 * the bytes sent.
 */
export async function streamBinary(
  source: RepositoryAdapter,
  target: RepositoryAdapter,
  copy: BinaryCopy,
  write: (upload: () => Promise<string>) => Promise<string>,
): Promise<{ readonly uri: string; readonly sent: StreamDigests }> {
  const download = await source.downloadBinary(copy.sourceUri);
  const { stream, digests } = digesting(download.content);
  const digest = uploadDigest(copy.sourceDigest);
  try {
    const uri = await write(() =>
      uploadNamedBinary(
        target,
        copy.parentTargetUri,
        copy.name,
        {
          content: stream,
          filename: copy.filename ?? download.filename ?? copy.name,
          contentType: copy.mediaType ?? download.contentType,
        },
        digest,
      ),
    );
    return { uri, sent: digests() };
  } catch (error) {
    // Fedora checks the Digest sent and refuses bytes that do not match it (409): nothing is kept.
    if (digest !== undefined && isConflict(error) && !(error instanceof TargetExistsError))
      throw new RefusedBytesError(
        `The target refused the bytes sent for ${copy.sourceUri}: they do not match the ${digest.algorithm} digest the source holds (${digest.hex}); nothing was kept`,
        digest.algorithm,
      );
    throw error;
  }
}

/** The target refused the bytes of an upload: they did not match the digest sent with them. */
export class RefusedBytesError extends Error {
  constructor(
    message: string,
    readonly algorithm: string,
  ) {
    super(message);
    this.name = 'RefusedBytesError';
  }
}

/** A source digest as the adapters send one (`Digest`); md5 is never sent. */
function uploadDigest(stored: string | null): UploadDigest | undefined {
  const held = parseStoredDigest(stored);
  if (held === undefined || held.algorithm === 'md5') return undefined;
  return {
    algorithm:
      held.algorithm === 'sha1' ? 'sha1' : (algorithmName(held.algorithm) as UploadDigest['algorithm']),
    hex: held.hex,
  };
}

function isConflict(error: unknown): boolean {
  return error instanceof UpstreamFailedError && error.status === 409;
}

/** Reads a source binary again, only to hash it (a resumed apply checking what an earlier attempt sent). */
export async function sourceDigests(source: RepositoryAdapter, uri: string): Promise<StreamDigests> {
  const { content } = await source.downloadBinary(uri);
  return digestOf(content);
}

/** Why the bytes read from the source do not match the digest the source holds (undefined: they do). */
export function sourceMismatch(
  uri: string,
  held: HeldDigest | undefined,
  read: StreamDigests,
): string | undefined {
  if (held === undefined || read.hex[held.algorithm] === held.hex) return undefined;
  return `The bytes read from ${uri} do not match the ${algorithmName(held.algorithm)} digest the source holds (${held.hex}, read ${read.hex[held.algorithm]})`;
}

/**
 * Compares what arrived at `uri` with the bytes sent: with the digest the target holds (its description's
 * premis:hasMessageDigest, written as it received the bytes), else its fixity check, else by reading the
 * copy's bytes back and hashing them (a plain LDP server holds no digest).
 */
export async function checkArrival(
  target: RepositoryAdapter,
  uri: string,
  sent: StreamDigests,
): Promise<ArrivalCheck> {
  const there = await target.describe(uri);
  let held = heldDigest(there.quads);
  if (held === undefined && target.fixity !== undefined) {
    const fixity = await target.fixity.check(uri);
    const digest = namedNode(fixity.messageDigest);
    held = heldDigest([quad(namedNode(uri), namedNode(PREMIS.hasMessageDigest), digest)]);
  }
  if (held !== undefined) return compared(there, held.algorithm, sent.hex[held.algorithm], held.hex);
  const { content } = await target.downloadBinary(uri);
  const arrived = await digestOf(content);
  return compared(there, 'sha512', sent.hex.sha512, arrived.hex.sha512);
}

function compared(
  there: ResourceDescription,
  algorithm: HeldDigest['algorithm'],
  expected: string,
  found: string,
): ArrivalCheck {
  return {
    there,
    algorithm: algorithmName(algorithm),
    check: expected === found ? 'MATCH' : 'MISMATCH',
    expected,
    found,
  };
}
