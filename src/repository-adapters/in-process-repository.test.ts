import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UpstreamFailedError } from '../shared/errors.js';
import { InProcessRepository, IN_PROCESS_ADDRESS, type InjectTarget } from './in-process-repository.js';
import { RepositoryHttpClient } from './repository-http-client.js';
import { parseRoot } from './uri-confinement.js';

/** A stand-in for the app: records what is injected and answers `answer()`. */
function fakeApp(
  addresses: ReturnType<InjectTarget['addresses']>,
  answer: () => Promise<Awaited<ReturnType<InjectTarget['inject']>>> = () =>
    Promise.resolve({
      statusCode: 200,
      headers: { 'content-type': 'text/plain', 'content-length': 2 },
      stream: () => Readable.from([Buffer.from('ok')]),
      raw: { res: { destroy: () => undefined } },
    }),
) {
  const injected: Parameters<InjectTarget['inject']>[0][] = [];
  const target: InjectTarget = {
    inject: (options) => {
      injected.push(options);
      return answer();
    },
    addresses: () => addresses,
  };
  return { target, injected };
}

const at = (root: string, local: InProcessRepository) => local.transportFor(parseRoot(root)) !== undefined;

describe('which roots are this process’s embedded repository', () => {
  it('the address:port the server listens on, under /rest/ only, and nothing before attach', () => {
    const local = new InProcessRepository({ publicUrl: 'http://127.0.0.1:0', mount: '/rest/' });
    expect(at('http://127.0.0.1:8123/rest/', local)).toBe(false);
    local.attach(fakeApp([{ address: '127.0.0.1', family: 'IPv4', port: 8123 }]).target);
    expect(at('http://127.0.0.1:8123/rest/', local)).toBe(true);
    expect(at('http://127.0.0.1:8123/rest/a/b/', local)).toBe(true);
    expect(at('http://127.0.0.1:8123/', local)).toBe(false);
    expect(at('http://127.0.0.1:8123/internal/', local)).toBe(false);
    expect(at('http://127.0.0.1:8123/restless/', local)).toBe(false);
    expect(at('http://127.0.0.1:8124/rest/', local)).toBe(false);
    expect(at('http://127.0.0.2:8123/rest/', local)).toBe(false);
    expect(at('http://localhost:8123/rest/', local)).toBe(false);
    expect(at('https://127.0.0.1:8123/rest/', local)).toBe(false);
    expect(at('http://example.org/rest/', local)).toBe(false);
    local.detach();
    expect(at('http://127.0.0.1:8123/rest/', local)).toBe(false);
  });

  it('a wildcard listener: the loopback addresses on its port; IPv6 in brackets', () => {
    const wildcard = new InProcessRepository({ publicUrl: 'http://0.0.0.0:0', mount: '/rest/' });
    wildcard.attach(fakeApp([{ address: '::', family: 'IPv6', port: 9000 }]).target);
    expect(at('http://127.0.0.1:9000/rest/', wildcard)).toBe(true);
    expect(at('http://[::1]:9000/rest/', wildcard)).toBe(true);
    expect(at('http://192.0.2.7:9000/rest/', wildcard)).toBe(false);
    const v6 = new InProcessRepository({ publicUrl: 'http://0.0.0.0:0', mount: '/rest/' });
    v6.attach(fakeApp([{ address: '::1', family: 'IPv6', port: 9001 }, '/tmp/socket']).target);
    expect(at('http://[::1]:9001/rest/', v6)).toBe(true);
    expect(at('http://127.0.0.1:9001/rest/', v6)).toBe(false);
  });

  it('the configured public URL when it is http (an https one reaches us through a TLS proxy)', () => {
    const plain = new InProcessRepository({ publicUrl: 'http://scriptorium.example.org', mount: '/rest/' });
    plain.attach(fakeApp([]).target);
    expect(at('http://scriptorium.example.org/rest/', plain)).toBe(true);
    expect(at('http://scriptorium.example.org:80/rest/', plain)).toBe(true);
    expect(at('http://scriptorium.example.org:8080/rest/', plain)).toBe(false);
    expect(at('http://evil.example.org/rest/', plain)).toBe(false);
    const tls = new InProcessRepository({ publicUrl: 'https://scriptorium.example.org', mount: '/rest/' });
    tls.attach(fakeApp([]).target);
    expect(at('https://scriptorium.example.org/rest/', tls)).toBe(false);
    expect(at('http://scriptorium.example.org/rest/', tls)).toBe(false);
  });
});

describe('the client over the in-process transport', () => {
  const root = 'http://127.0.0.1:9/rest/';
  const listening = [{ address: '127.0.0.1', family: 'IPv4', port: 9 }];

  it('injects the request with the Host, the credentials and the in-process peer address', async () => {
    const { target, injected } = fakeApp(listening);
    const local = new InProcessRepository({ publicUrl: 'http://127.0.0.1:0', mount: '/rest/' });
    local.attach(target);
    const client = new RepositoryHttpClient({ rootUri: root, username: 'u', password: 'secret' }, { local });
    expect(client.inProcess).toBe(true);
    const response = await client.expectOk({
      method: 'GET',
      uri: `${root}a`,
      headers: { accept: 'text/turtle' },
    });
    expect(await client.text(response)).toBe('ok');
    expect(response.header('content-length')).toBe('2');
    expect(injected).toHaveLength(1);
    expect(injected[0]).toMatchObject({
      method: 'GET',
      url: '/rest/a',
      remoteAddress: IN_PROCESS_ADDRESS,
      headers: {
        host: '127.0.0.1:9',
        accept: 'text/turtle',
        authorization: `Basic ${Buffer.from('u:secret').toString('base64')}`,
      },
    });
    expect(client.requestCount).toBe(1);
    expect(local.dispatched).toBe(1);
  });

  it('is not used for another root, nor when a test dispatcher is given', () => {
    const local = new InProcessRepository({ publicUrl: 'http://127.0.0.1:0', mount: '/rest/' });
    local.attach(fakeApp(listening).target);
    expect(new RepositoryHttpClient({ rootUri: 'http://127.0.0.1:10/rest/' }, { local }).inProcess).toBe(
      false,
    );
    expect(new RepositoryHttpClient({ rootUri: root }).inProcess).toBe(false);
  });

  it('keeps the response timeout: headers that never come are a timeout naming the request', async () => {
    const local = new InProcessRepository({ publicUrl: 'http://127.0.0.1:0', mount: '/rest/' });
    local.attach(fakeApp(listening, () => new Promise(() => undefined)).target);
    const client = new RepositoryHttpClient({ rootUri: root }, { local, responseTimeoutMs: 100 });
    await expect(client.send({ method: 'GET', uri: `${root}slow` })).rejects.toThrow(
      new UpstreamFailedError(`GET ${root}slow timed out after 0.1 s`),
    );
  });

  it('keeps the response timeout while a body pauses, and closes the handler’s response', async () => {
    let closed = 0;
    const local = new InProcessRepository({ publicUrl: 'http://127.0.0.1:0', mount: '/rest/' });
    local.attach(
      fakeApp(listening, () =>
        Promise.resolve({
          statusCode: 200,
          headers: { 'content-type': 'text/turtle' },
          stream: () => new Readable({ read: () => undefined }),
          raw: {
            res: {
              destroy: () => {
                closed++;
              },
            },
          },
        }),
      ).target,
    );
    const client = new RepositoryHttpClient({ rootUri: root }, { local, responseTimeoutMs: 100 });
    const response = await client.send({ method: 'GET', uri: `${root}trickle` });
    await expect(client.text(response)).rejects.toThrow(`GET ${root}trickle timed out after 0.1 s`);
    expect(closed).toBe(1);
  });

  it('keeps the size bound on text bodies', async () => {
    const local = new InProcessRepository({ publicUrl: 'http://127.0.0.1:0', mount: '/rest/' });
    local.attach(
      fakeApp(listening, () =>
        Promise.resolve({
          statusCode: 200,
          headers: { 'content-type': 'text/turtle' },
          stream: () => Readable.from([Buffer.alloc(4096, 'a')]),
          raw: { res: { destroy: () => undefined } },
        }),
      ).target,
    );
    const client = new RepositoryHttpClient({ rootUri: root }, { local, maxRdfBytes: 1024 });
    const response = await client.send({ method: 'GET', uri: `${root}big` });
    await expect(client.text(response)).rejects.toThrow('larger than the limit of 1 KiB');
  });

  it('sends a streamed body (an upload) over HTTP, never in process', async () => {
    const { target, injected } = fakeApp(listening);
    const local = new InProcessRepository({ publicUrl: 'http://127.0.0.1:0', mount: '/rest/' });
    local.attach(target);
    // Nothing listens on port 9 (discard): over HTTP the upload fails to connect, which is the point.
    const client = new RepositoryHttpClient({ rootUri: root }, { local, connectTimeoutMs: 1000 });
    await expect(
      client.send({ method: 'POST', uri: root, body: Readable.from([Buffer.from('bytes')]) }),
    ).rejects.toThrow(UpstreamFailedError);
    expect(injected).toHaveLength(0);
  });
});
