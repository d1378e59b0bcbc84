import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import yauzl from 'yauzl';

/** Where an archive entry goes below `into`; refuses a name that would leave it. */
function target(into: string, name: string): string {
  const file = path.resolve(into, name);
  if (!file.startsWith(path.resolve(into) + path.sep))
    throw new Error(`the archive names a path outside: ${name}`);
  return file;
}

/** Extracts a tar (bytes) into `into` with tar-stream; answers the entry names in order. */
export async function extractTar(bytes: Buffer, into: string): Promise<string[]> {
  const names: string[] = [];
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      names.push(header.name);
      const file = target(into, header.name);
      void mkdir(path.dirname(file), { recursive: true })
        .then(() => pipeline(stream, createWriteStream(file)))
        .then(() => {
          next();
        }, reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  Readable.from([bytes]).pipe(extract);
  await done;
  return names;
}

/** Extracts a zip (bytes) into `into` with yauzl; answers the entry names in order. */
export async function extractZip(bytes: Buffer, into: string): Promise<string[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => {
      if (error) reject(error);
      else resolve(file);
    });
  });
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      const file = target(into, entry.fileName);
      zip.openReadStream(entry, (error, stream) => {
        if (error) {
          reject(error);
          return;
        }
        void mkdir(path.dirname(file), { recursive: true })
          .then(() => pipeline(stream, createWriteStream(file)))
          .then(() => {
            zip.readEntry();
          }, reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return names;
}
