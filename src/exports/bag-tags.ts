import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExportFile } from './export-files.store.js';
import { manifestPath } from './bag-paths.js';

/** The tag files a finished bag holds besides its manifests (and tagmanifest-sha256.txt over them all). */
export const BAGIT_TXT = 'bagit.txt';
export const BAG_INFO_TXT = 'bag-info.txt';
export const PREMIS_XML = 'premis.xml';
export const MANIFESTS = { sha512: 'manifest-sha512.txt', sha256: 'manifest-sha256.txt' } as const;
export const TAG_MANIFEST = 'tagmanifest-sha256.txt';

/** What bag-info.txt says of the bag (RFC 8493 §2.2.2). */
export interface BagInfo {
  readonly organization: string;
  /** When the bag was made (Bagging-Date, YYYY-MM-DD in UTC). */
  readonly date: Date;
  /** The scope's IRI (External-Identifier). */
  readonly identifier: string;
  /** "Scriptorium <version>" (Bag-Software-Agent). */
  readonly agent: string;
}

/** A manifest line's bytes are buffered up to this before they are written. */
const FLUSH_BYTES = 64 * 1024;

/**
 * Writes the tag files of a bag whose payload is complete: bagit.txt, both payload manifests (streamed
 * from the recorded files, never held whole), bag-info.txt with the Payload-Oxum they add up to,
 * premis.xml, and tagmanifest-sha256.txt over all of them. Answers the Payload-Oxum.
 */
export async function writeTagFiles(
  bagDir: string,
  files: AsyncIterable<ExportFile>,
  info: BagInfo,
  premis: string,
): Promise<{ octets: number; count: number }> {
  await writeFile(path.join(bagDir, BAGIT_TXT), 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
  const sha512 = await open(path.join(bagDir, MANIFESTS.sha512), 'w');
  const sha256 = await open(path.join(bagDir, MANIFESTS.sha256), 'w');
  let octets = 0;
  let count = 0;
  try {
    let lines512 = '';
    let lines256 = '';
    for await (const file of files) {
      octets += file.size;
      count += 1;
      const name = manifestPath(file.path);
      lines512 += `${file.sha512}  ${name}\n`;
      lines256 += `${file.sha256}  ${name}\n`;
      if (lines512.length >= FLUSH_BYTES) {
        await sha512.write(lines512);
        await sha256.write(lines256);
        lines512 = '';
        lines256 = '';
      }
    }
    await sha512.write(lines512);
    await sha256.write(lines256);
    await sha512.sync();
    await sha256.sync();
  } finally {
    await sha512.close();
    await sha256.close();
  }
  await writeFile(path.join(bagDir, BAG_INFO_TXT), bagInfoText(info, octets, count));
  await writeFile(path.join(bagDir, PREMIS_XML), premis);
  const tags = [BAGIT_TXT, BAG_INFO_TXT, MANIFESTS.sha256, MANIFESTS.sha512, PREMIS_XML];
  let tagLines = '';
  for (const tag of tags) tagLines += `${await sha256Of(path.join(bagDir, tag))}  ${tag}\n`;
  await writeFile(path.join(bagDir, TAG_MANIFEST), tagLines);
  return { octets, count };
}

/** bag-info.txt: one `Label: value` a line; a value's line breaks become spaces (a value is one line). */
export function bagInfoText(info: BagInfo, octets: number, count: number): string {
  const line = (label: string, value: string) => `${label}: ${value.replace(/[\r\n]+/gu, ' ').trim()}\n`;
  return (
    line('Source-Organization', info.organization) +
    line('Bagging-Date', info.date.toISOString().slice(0, 10)) +
    line('Payload-Oxum', `${octets}.${count}`) +
    line('External-Identifier', info.identifier) +
    line('Bag-Software-Agent', info.agent)
  );
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
