import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { listenWithEmbeddedView } from './support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from './support/test-app.js';
import { startCommunitySolidServer } from './contract/css-global-setup.js';

/**
 * Issue 8, finding 7: an upload over SCRIPTORIUM_REPOSITORY_MAX_BINARY_BYTES is refused (413 ERROR, as
 * DECISIONS §2 says for a body over the limit) and leaves nothing behind in the repository, on both
 * adapter kinds, through the real app. Before the fix the upload was sent on cut short at the limit, so
 * the repository stored the first 1024 bytes although the client was told 400.
 */
const LIMIT = 1024;
const BOUNDARY = '----scriptorium-limit';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

interface Target {
  readonly prefix: string;
  readonly container: string;
}

let t: TestApp;
let port: number;
let fedora: Target;
let ldp: Target;
/** An LDP view on a Community Solid Server with the file backend, which keeps what it read of an aborted upload. */
let ldpOnDisk: Target & { directory: string };
let cssOnDisk: { stop: () => Promise<void> } | undefined;
const cssDisk = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-css-'));

function multipartHead(contextUri: string): string {
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="contextUri"\r\n\r\n${contextUri}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n`
  );
}
const multipartTail = `\r\n--${BOUNDARY}--\r\n`;

/** The whole multipart body at once (through inject). */
async function uploadAtOnce(target: Target, bytes: Buffer) {
  const response = await t.app.inject({
    method: 'POST',
    url: `${target.prefix}/resource`,
    headers: {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      authorization: `Bearer ${t.adminToken}`,
    },
    payload: Buffer.concat([Buffer.from(multipartHead(target.container)), bytes, Buffer.from(multipartTail)]),
  });
  return { status: response.statusCode, text: response.body };
}

/**
 * The multipart body over a real connection in two pieces: the part headers and `first` bytes, then
 * (after `between` resolved) the rest. Lets a test see the upstream request start before the limit.
 */
function uploadInTwoPieces(
  target: Target,
  first: Buffer,
  rest: Buffer,
  between: () => Promise<void>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${target.prefix}/resource`,
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        authorization: `Bearer ${t.adminToken}`,
      },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() });
      });
      response.on('error', reject);
    });
    // The server may answer (and stop reading) before the whole body is written.
    request.on('error', () => undefined);
    request.write(Buffer.concat([Buffer.from(multipartHead(target.container)), first]));
    between().then(
      () => {
        request.end(Buffer.concat([rest, Buffer.from(multipartTail)]));
      },
      (error: unknown) => {
        request.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

async function childrenOf(target: Target): Promise<string[]> {
  const response = await sendJson(t.app, 'GET', `${target.prefix}/children?${q(target.container)}`);
  const envelope = body(response);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return (envelope.payload['ArrayList<Triple>'] as { object: string }[]).map((triple) => triple.object);
}

async function download(target: Target, uri: string): Promise<Buffer> {
  const response = await t.app.inject({
    method: 'GET',
    url: `${target.prefix}/resource/content?${q(uri)}`,
    headers: { authorization: `Bearer ${t.adminToken}` },
  });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

/** Every file under the embedded repository's binaries directory (content files and temporary files). */
function binaryFiles(): string[] {
  const root = path.join(t.config.dataDir, 'binaries');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}
const temporaryFiles = () => binaryFiles().filter((name) => name.endsWith('.tmp'));

async function newContainer(prefix: string, root: string): Promise<string> {
  const before = new Set(await childrenOf({ prefix, container: root }));
  const response = await sendJson(t.app, 'POST', `${prefix}/children?${q(root)}`, []);
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
  const created = (await childrenOf({ prefix, container: root })).filter((child) => !before.has(child));
  expect(created).toHaveLength(1);
  return created[0]!;
}

function expectRefusal(answer: { status: number; text: string }): void {
  expect(answer.status, answer.text).toBe(413);
  const envelope = JSON.parse(answer.text) as { meta: { status: string; message: string } };
  expect(envelope.meta.status).toBe('ERROR');
  expect(envelope.meta.message).toBe(`The file is larger than the limit of ${LIMIT} bytes`);
}

beforeAll(async () => {
  t = await buildTestApp({ repositoryMaxBinaryBytes: LIMIT });
  const embedded = await listenWithEmbeddedView(t);
  port = (t.app.server.address() as AddressInfo).port;
  fedora = { prefix: embedded.prefix, container: await newContainer(embedded.prefix, embedded.rootUri) };

  // A container of its own on the run's Community Solid Server, so other suites' resources do not count.
  ldp = await ldpTarget(inject('cssBaseUrl'), 'CSS (memory)');
  const css = await startCommunitySolidServer(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'contract', 'css-file-config.json'),
    cssDisk,
  );
  cssOnDisk = css;
  const onDisk = await ldpTarget(css.baseUrl, 'CSS (file)');
  ldpOnDisk = { ...onDisk, directory: path.join(cssDisk, new URL(onDisk.container).pathname) };
});
afterAll(async () => {
  await t.close();
  await cssOnDisk?.stop();
  fs.rmSync(cssDisk, { recursive: true, force: true });
});

async function ldpTarget(cssBaseUrl: string, name: string): Promise<Target> {
  const root = `${cssBaseUrl}upload-limit-${randomUUID()}/`;
  const made = await fetch(root, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' });
  expect(made.ok).toBe(true);
  const view = body(await sendJson(t.app, 'POST', '/repository-view', { type: 'LDP', name, rootUri: root }));
  expect(view.meta.status).toBe('SUCCESS');
  const prefix = `/repository-view-context/LDP/${(view.payload.RepositoryView as { id: number }).id}`;
  return { prefix, container: await newContainer(prefix, root) };
}

/** The files of a container's directory on the file-backed server (its own `.meta` files aside). */
const filesOnDisk = (directory: string) =>
  fs.readdirSync(directory).filter((name) => !name.endsWith('.meta'));

describe('an upload over the binary limit', () => {
  it('FEDORA (embedded): sent at once, is refused and nothing is stored', async () => {
    expectRefusal(await uploadAtOnce(fedora, Buffer.alloc(5000, 'a')));
    expect(await childrenOf(fedora)).toEqual([]);
    // The upstream request may still be unwinding; its temporary file must go.
    await vi.waitFor(
      () => {
        expect(temporaryFiles()).toEqual([]);
      },
      { timeout: 10_000 },
    );
    expect(binaryFiles()).toEqual([]);
  });

  it('FEDORA (embedded): streamed, aborts the upstream upload already under way; nothing is kept', async () => {
    const answer = await uploadInTwoPieces(
      fedora,
      Buffer.alloc(1000, 'b'),
      Buffer.alloc(4000, 'b'),
      // The embedded repository has started writing the upload (its temporary file exists).
      () =>
        vi.waitFor(
          () => {
            expect(temporaryFiles()).toHaveLength(1);
          },
          { timeout: 10_000 },
        ),
    );
    expectRefusal(answer);
    // The aborted upstream request removes its temporary file and creates no record.
    await vi.waitFor(
      () => {
        expect(temporaryFiles()).toEqual([]);
      },
      { timeout: 10_000 },
    );
    expect(binaryFiles()).toEqual([]);
    expect(await childrenOf(fedora)).toEqual([]);
  });

  it('LDP (Community Solid Server): sent at once or streamed, is refused and creates no child', async () => {
    expectRefusal(await uploadAtOnce(ldp, Buffer.alloc(5000, 'c')));
    expectRefusal(
      await uploadInTwoPieces(ldp, Buffer.alloc(1000, 'd'), Buffer.alloc(4000, 'd'), () => Promise.resolve()),
    );
    expect(await childrenOf(ldp)).toEqual([]);
  });

  it('LDP (file-backed CSS, which keeps a truncated upload): the adapter deletes what was created', async () => {
    const answer = await uploadInTwoPieces(
      ldpOnDisk,
      Buffer.alloc(1000, 'f'),
      Buffer.alloc(4000, 'f'),
      // The server has started writing the upload to disk.
      () =>
        vi.waitFor(
          () => {
            expect(filesOnDisk(ldpOnDisk.directory)).toHaveLength(1);
          },
          { timeout: 10_000 },
        ),
    );
    expectRefusal(answer);
    expect(await childrenOf(ldpOnDisk)).toEqual([]);
    expect(filesOnDisk(ldpOnDisk.directory)).toEqual([]);
  });
});

describe('an upload exactly at the binary limit', () => {
  it.each([
    ['FEDORA', () => fedora],
    ['LDP', () => ldp],
  ])('%s: is stored whole', async (_kind, target) => {
    const bytes = Buffer.alloc(LIMIT, 'e');
    const before = await childrenOf(target());
    const answer = await uploadAtOnce(target(), bytes);
    expect(answer.status, answer.text).toBe(200);
    const created = (await childrenOf(target())).filter((child) => !before.includes(child));
    expect(created).toHaveLength(1);
    expect((await download(target(), created[0]!)).equals(bytes)).toBe(true);
  });
});
