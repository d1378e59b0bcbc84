import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** What a bag's validation found; `problems` is empty for a valid bag. */
export interface BagValidation {
  readonly problems: string[];
  /** The payload files found under data/, as bag paths. */
  readonly payload: string[];
}

const ALGORITHMS: Readonly<Record<string, string>> = {
  sha512: 'sha512',
  sha256: 'sha256',
  sha1: 'sha1',
  md5: 'md5',
};

/**
 * Validates a BagIt 1.0 bag (RFC 8493) from its files alone, knowing nothing of who wrote it: bagit.txt's
 * two declarations; every line of every payload manifest (its file exists under data/ and has that digest)
 * and every payload file listed in each manifest; bag-info.txt's Payload-Oxum (octets and file count); and
 * every line of every tag manifest. Answers every problem found, each naming the file.
 */
export async function validateBag(bagDir: string): Promise<BagValidation> {
  const problems: string[] = [];
  const bagit = await readText(path.join(bagDir, 'bagit.txt'));
  if (bagit === undefined) problems.push('bagit.txt is missing');
  else if (bagit !== 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n')
    problems.push(`bagit.txt does not declare BagIt 1.0 in UTF-8: ${JSON.stringify(bagit)}`);
  const payload = (await filesBelow(bagDir, 'data')).sort();
  const top = await readdir(bagDir);
  const manifests = top.filter((name) => /^manifest-[a-z0-9]+\.txt$/.test(name));
  if (manifests.length === 0) problems.push('the bag has no payload manifest');
  for (const manifest of manifests) {
    const listed = await checkManifest(bagDir, manifest, problems);
    for (const file of payload) if (!listed.has(file)) problems.push(`${file} is not listed in ${manifest}`);
    for (const file of listed)
      if (!file.startsWith('data/')) problems.push(`${manifest} lists ${file}, which is not a payload file`);
  }
  const info = await readText(path.join(bagDir, 'bag-info.txt'));
  const oxum = /^Payload-Oxum: (\d+)\.(\d+)$/m.exec(info ?? '');
  if (oxum === null) problems.push('bag-info.txt has no Payload-Oxum');
  else {
    let octets = 0;
    for (const file of payload) octets += (await stat(path.join(bagDir, ...file.split('/')))).size;
    if (Number(oxum[1]) !== octets || Number(oxum[2]) !== payload.length)
      problems.push(
        `Payload-Oxum ${oxum[1]}.${oxum[2]} does not match the payload's ${octets}.${payload.length}`,
      );
  }
  for (const tagManifest of top.filter((name) => /^tagmanifest-[a-z0-9]+\.txt$/.test(name)))
    await checkManifest(bagDir, tagManifest, problems);
  return { problems, payload };
}

/** Checks each line of a manifest; answers the paths it lists. */
async function checkManifest(bagDir: string, manifest: string, problems: string[]): Promise<Set<string>> {
  const algorithm = ALGORITHMS[/^(?:tag)?manifest-([a-z0-9]+)\.txt$/.exec(manifest)?.[1] ?? ''];
  const listed = new Set<string>();
  if (algorithm === undefined) {
    problems.push(`${manifest} names an algorithm this validator does not know`);
    return listed;
  }
  const text = (await readText(path.join(bagDir, manifest))) ?? '';
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const match = /^([0-9a-fA-F]+) +(.+)$/.exec(line);
    if (match === null) {
      problems.push(`${manifest} has a malformed line: ${JSON.stringify(line)}`);
      continue;
    }
    const file = decodePath(match[2] ?? '');
    listed.add(file);
    if (file.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) {
      problems.push(`${manifest} lists an unsafe path: ${file}`);
      continue;
    }
    const actual = await digestOf(path.join(bagDir, ...file.split('/')), algorithm);
    if (actual === undefined) problems.push(`${manifest} lists ${file}, which does not exist`);
    else if (actual !== match[1]?.toLowerCase())
      problems.push(`${file} does not match its digest in ${manifest}`);
  }
  return listed;
}

/** RFC 8493 §2.1.3: a manifest writes `%`, CR and LF in paths percent-encoded. */
function decodePath(written: string): string {
  return written.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%25/g, '%');
}

async function digestOf(file: string, algorithm: string): Promise<string | undefined> {
  try {
    const hash = createHash(algorithm);
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every file below `folder` of `root`, as `folder/…` paths with `/`. */
async function filesBelow(root: string, folder: string): Promise<string[]> {
  const entries = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}
