import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import yazl from 'yazl';
import { BAG_INFO_TXT, BAGIT_TXT, MANIFESTS, PREMIS_XML, TAG_MANIFEST } from './bag-tags.js';

/** The tag files of a finished bag, in the order an archive holds them (before the payload). */
const TAG_FILES = [BAGIT_TXT, BAG_INFO_TXT, MANIFESTS.sha256, MANIFESTS.sha512, PREMIS_XML, TAG_MANIFEST];

/** A bag's files as an archive names them (`bag-<id>/…`), with where each is on disk. */
export interface BagEntries {
  /** The bag's root directory inside the archive, `bag-<id>`. */
  readonly root: string;
  readonly directory: string;
  /** The payload files' bag paths (`data/…`), as recorded, in order. */
  readonly payload: AsyncIterable<string>;
}

async function* entriesOf(bag: BagEntries): AsyncGenerator<{ name: string; file: string }> {
  for (const tag of TAG_FILES) yield { name: `${bag.root}/${tag}`, file: path.join(bag.directory, tag) };
  for await (const payload of bag.payload)
    yield { name: `${bag.root}/${payload}`, file: path.join(bag.directory, ...payload.split('/')) };
}

/**
 * The bag as a tar stream (tar-stream's pack): one file at a time, each streamed from disk into its entry,
 * paced by whoever reads the archive. Errors (a file gone meanwhile) destroy the stream.
 */
export function tarOfBag(bag: BagEntries): Readable {
  const pack = tar.pack();
  // tar-stream's streams are streamx streams: handed on as a Node stream, paced by its reader.
  const out = new PassThrough();
  pack.pipe(out);
  // A reader that went away (a download cut short) stops the packing, and the file it was reading.
  out.on('close', () => {
    pack.destroy();
  });
  void (async () => {
    for await (const { name, file } of entriesOf(bag)) {
      const { size, mtime } = await stat(file);
      const entry = pack.entry({ name, size, mtime, type: 'file', mode: 0o644 });
      await pipeline(createReadStream(file), entry);
    }
    pack.finalize();
  })().catch((error: unknown) => {
    const failure = error instanceof Error ? error : new Error(String(error));
    pack.destroy(failure);
    out.destroy(failure);
  });
  return out;
}

/**
 * The bag as a zip stream (yazl): entries are added as the payload list is read and each file is opened
 * only when its turn comes (addReadStreamLazy), stored uncompressed (bags are mostly binaries already
 * compressed, and the bag's own digests cover the bytes).
 */
export function zipOfBag(bag: BagEntries): Readable {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  out.on('close', () => {
    zip.outputStream.unpipe(out);
    (zip.outputStream as unknown as Readable).destroy();
  });
  void (async () => {
    for await (const { name, file } of entriesOf(bag)) {
      const { size, mtime } = await stat(file);
      zip.addReadStreamLazy(name, { size, mtime, compress: false }, (done) => {
        done(null, createReadStream(file));
      });
    }
    zip.end();
  })().catch((error: unknown) => {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
