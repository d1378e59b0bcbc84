import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../src/embedded-repository/credentials.js';
import { buildTestApp, type TestApp } from './support/test-app.js';
import { testDialect } from './support/test-database.js';

/**
 * Nothing under the data directory is readable by other local users: the SQLite database and its WAL
 * files, the secret, the repository password, the binaries tree and an upload still being written.
 */
let parent: string | undefined;
let t: TestApp | undefined;
let socket: net.Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  await t?.close();
  if (parent !== undefined) fs.rmSync(parent, { recursive: true, force: true });
  t = undefined;
  parent = undefined;
  socket = undefined;
});

/** Every path under `root` (itself included) whose mode is not 0700 for a directory or 0600 for a file. */
function looseModes(root: string): string[] {
  const loose: string[] = [];
  const visit = (file: string) => {
    const stat = fs.lstatSync(file);
    const mode = stat.mode & 0o777;
    const expected = stat.isDirectory() ? 0o700 : 0o600;
    if (mode !== expected) loose.push(`${path.relative(root, file) || '.'} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(root);
  return loose;
}

function allFiles(root: string): string[] {
  return fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).map((name) => path.join(root, name));
}

describe(`modes under the data directory (${testDialect})`, () => {
  it('creates every file 0600 and every directory 0700, the data directory itself included', async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-modes-'));
    const dataDir = path.join(parent, 'data');
    t = await buildTestApp({
      dataDir,
      embeddedRepository: true,
      repositoryPassword: undefined,
      secret: undefined,
      // On SQLite the database lives in the data directory; on PostgreSQL only the binaries side applies.
      ...(testDialect === 'sqlite'
        ? { database: { kind: 'sqlite', file: path.join(dataDir, 'scriptorium.sqlite') } }
        : {}),
    });
    const { username, password } = resolveRepositoryCredentials(t.config);
    const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    const upload = await t.app.inject({
      method: 'POST',
      url: '/rest/',
      headers: { authorization, 'content-type': 'application/octet-stream', slug: 'scan' },
      payload: Buffer.alloc(100_000, 7),
    });
    expect(upload.statusCode).toBe(201);

    // An upload still arriving: its temporary file is private too.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    socket = net.connect({ port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    socket.write(
      `POST /rest/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\n` +
        'Content-Type: application/octet-stream\r\nContent-Length: 10000000\r\n\r\n',
    );
    socket.write(Buffer.alloc(200_000, 1));
    await expect
      .poll(() => allFiles(dataDir).some((file) => path.basename(file).startsWith('.upload-')), {
        timeout: 10_000,
      })
      .toBe(true);

    const names = allFiles(dataDir).map((file) => path.relative(dataDir, file));
    expect(names).toEqual(expect.arrayContaining(['secret', 'repository-password', 'binaries']));
    if (testDialect === 'sqlite') {
      expect(names).toEqual(
        expect.arrayContaining(['scriptorium.sqlite', 'scriptorium.sqlite-wal', 'scriptorium.sqlite-shm']),
      );
    }
    expect(
      names.filter((name) => /^binaries\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{128}$/.test(name)),
    ).toHaveLength(1);
    expect(looseModes(dataDir)).toEqual([]);
  });

  it('tightens what an earlier version left open: the database file and the binaries folder', async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-modes-'));
    const dataDir = path.join(parent, 'data');
    fs.mkdirSync(path.join(dataDir, 'binaries'), { recursive: true, mode: 0o755 });
    fs.chmodSync(dataDir, 0o700);
    fs.chmodSync(path.join(dataDir, 'binaries'), 0o755);
    const file = path.join(dataDir, 'scriptorium.sqlite');
    if (testDialect === 'sqlite') fs.writeFileSync(file, '', { mode: 0o644 });
    t = await buildTestApp({
      dataDir,
      embeddedRepository: true,
      ...(testDialect === 'sqlite' ? { database: { kind: 'sqlite', file } } : {}),
    });
    expect(fs.statSync(path.join(dataDir, 'binaries')).mode & 0o777).toBe(0o700);
    if (testDialect === 'sqlite') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
