import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_RELAY_HEADER, ActorRelay, newActor, runAs, type AuditActor } from '../audit/audit-actor.js';
import { InProcessRepository, type InjectTarget } from './in-process-repository.js';
import { RepositoryHttpClient } from './repository-http-client.js';

/**
 * The actor relay from the service's side (audit-actor.ts): a request to this process's own /rest, in
 * process or (an upload) over loopback, carries a token for the current actor, which redeems to it while
 * the request runs and to nothing once it is answered or failed; no token is left behind; no other origin
 * ever sees one, nor a token a caller tried to send itself.
 */
const actor = (): AuditActor => newActor({ username: 'curator', requestId: 'r1', repositoryViewId: 3 });

/** A stand-in for the app: redeems the relay header as /rest does, as its handler starts. */
function fakeApp(relay: ActorRelay, port: number, fail = false) {
  const redeemed: (AuditActor | undefined)[] = [];
  const target: InjectTarget = {
    inject: (options) => {
      redeemed.push(relay.redeem(options.headers[ACTOR_RELAY_HEADER]));
      if (fail) return Promise.reject(new Error('the handler failed'));
      return Promise.resolve({
        statusCode: 204,
        headers: {},
        stream: () => Readable.from([]),
        raw: { res: { destroy: () => undefined } },
      });
    },
    addresses: () => [{ address: '127.0.0.1', family: 'IPv4', port }],
  };
  return { target, redeemed };
}

/** A loopback server standing for this process's own listener: what reached it, redeemed on arrival. */
let server: http.Server;
let port = 0;
let relay: ActorRelay;
const arrived: { header: string | undefined; actor: AuditActor | undefined }[] = [];
beforeAll(async () => {
  relay = new ActorRelay();
  server = http.createServer((request, response) => {
    const header = request.headers[ACTOR_RELAY_HEADER];
    arrived.push({ header: typeof header === 'string' ? header : undefined, actor: relay.redeem(header) });
    request.resume();
    request.on('end', () => response.writeHead(201, { location: `http://127.0.0.1:${port}/rest/new` }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the actor relay', () => {
  it('in process: the current actor is redeemed by /rest, and released once answered or failed', async () => {
    const local = new InProcessRepository({ publicUrl: 'http://0.0.0.0:0', mount: '/rest/', relay });
    const app = fakeApp(relay, 9);
    local.attach(app.target);
    const client = new RepositoryHttpClient({ rootUri: 'http://127.0.0.1:9/rest/' }, { local });
    const someone = actor();
    await runAs(someone, () =>
      // A caller's own relay header is never sent on.
      client.send({
        method: 'PATCH',
        uri: 'http://127.0.0.1:9/rest/a',
        headers: { [ACTOR_RELAY_HEADER]: 'x' },
        body: '',
      }),
    );
    expect(app.redeemed).toEqual([someone]);
    expect(relay.size).toBe(0);

    // Without an actor: no header, nothing issued.
    await client.send({ method: 'PATCH', uri: 'http://127.0.0.1:9/rest/a', body: '' });
    expect(app.redeemed.at(-1)).toBeUndefined();

    const failing = fakeApp(relay, 9, true);
    local.attach(failing.target);
    await expect(
      runAs(actor(), () => client.send({ method: 'GET', uri: 'http://127.0.0.1:9/rest/a' })),
    ).rejects.toThrow();
    expect(failing.redeemed).toHaveLength(1);
    expect(failing.redeemed[0]?.username).toBe('curator');
    expect(relay.size).toBe(0);
  });

  it('an upload over loopback to this process carries it; to any other origin, never', async () => {
    const local = new InProcessRepository({ publicUrl: 'http://0.0.0.0:0', mount: '/rest/', relay });
    local.attach(fakeApp(relay, port).target);
    const own = new RepositoryHttpClient({ rootUri: `http://127.0.0.1:${port}/rest/` }, { local });
    const someone = actor();
    const upload = () => Readable.from([Buffer.from('bytes')]);
    const response = await runAs(someone, () =>
      own.send({ method: 'POST', uri: `http://127.0.0.1:${port}/rest/`, body: upload() }),
    );
    expect(response.status).toBe(201);
    expect(arrived.at(-1)?.actor).toBe(someone);
    expect(relay.size).toBe(0);
    // Replayed afterwards, the token names nobody.
    expect(relay.redeem(arrived.at(-1)?.header)).toBeUndefined();

    // The same server reached as another origin (not one this process listens on): no token.
    const other = new InProcessRepository({ publicUrl: 'http://0.0.0.0:0', mount: '/rest/', relay });
    other.attach(fakeApp(relay, port + 1).target);
    const elsewhere = new RepositoryHttpClient(
      { rootUri: `http://127.0.0.1:${port}/rest/` },
      { local: other },
    );
    await runAs(actor(), () =>
      elsewhere.send({ method: 'POST', uri: `http://127.0.0.1:${port}/rest/`, body: upload() }),
    );
    expect(arrived.at(-1)?.header).toBeUndefined();
    expect(relay.size).toBe(0);
  });
});
