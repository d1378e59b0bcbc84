import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BadRequestError, UpstreamFailedError } from '../../src/shared/errors.js';
import { rejection, type ContractRun } from './contract.support.js';

/** The adapter contract, part: Verification (ping, auth, content) against the target and the loopback stubs, then confinement to the root and the errors' wording. */
export function describeVerificationContract(run: ContractRun): void {
  const { kind, adapter, adapterFor } = run;
  const secret = (): string | null => run.target.view.password;

  describe('verification', () => {
    it('ping, auth and content succeed against the repository', async () => {
      const a = adapter();
      expect(await a.ping()).toEqual({ ok: true });
      expect(await a.checkAuth()).toEqual({ ok: true });
      expect(await a.checkContent()).toEqual({ ok: true });
    });

    it('ping names an unreachable host; auth and content fail too', async () => {
      const a = adapterFor({ ...run.target.view, rootUri: run.stubs.unreachableRoot });
      const ping = await a.ping();
      expect(ping.ok).toBe(false);
      expect(ping.message).toContain('Ping failed: GET http://127.0.0.1:');
      expect(ping.message).toContain('ECONNREFUSED');
      expect((await a.checkAuth()).ok).toBe(false);
      expect((await a.checkContent()).ok).toBe(false);
    });

    it('ping names a timeout', async () => {
      const a = adapterFor({ ...run.target.view, rootUri: run.stubs.slowRoot }, { responseTimeoutMs: 300 });
      const ping = await a.ping();
      expect(ping).toEqual({
        ok: false,
        message: `Ping failed: GET ${run.stubs.slowRoot} timed out after 0.3 s`,
      });
    });

    it('auth fails with credentials the server refuses: "Authentication failed. Status 401"', async () => {
      const view = run.target.wrongCredentials ?? {
        rootUri: run.stubs.lockedRoot,
        username: 'someone',
        password: 'wrong-password',
      };
      const a = adapterFor(view);
      expect(await a.ping()).toEqual({ ok: true });
      expect(await a.checkAuth()).toEqual({ ok: false, message: 'Authentication failed. Status 401' });
      const content = await a.checkContent();
      expect(content.ok).toBe(false);
      expect(content.message).toContain('answered 401 Unauthorized');
      expect(content.message).not.toContain(view.password ?? '\u0000');
    });

    it('content fails for a web server that is not a repository', async () => {
      const a = adapterFor({ ...run.target.view, rootUri: run.stubs.plainRoot });
      expect(await a.ping()).toEqual({ ok: true });
      expect(await a.checkAuth()).toEqual({ ok: true });
      const content = await a.checkContent();
      expect(content.ok).toBe(false);
      expect(content.message).toBe(
        kind === 'FEDORA'
          ? `${run.stubs.plainRoot} is not a Fedora repository root: it does not answer RDF`
          : `${run.stubs.plainRoot} is not a Linked Data Platform container: it is not typed ldp:Container`,
      );
    });
  });

  describe('confinement and errors', () => {
    it('refuses URIs outside the root before sending anything', async () => {
      const a = adapter();
      const root = a.client.rootUri;
      const outside = [
        'http://elsewhere.example/rest/x',
        `${root.replace('127.0.0.1', 'localhost')}x`,
        // Dot segments can only climb out of a root below the origin's "/".
        ...(new URL(root).pathname === '/' ? [] : [`${root}../escape`, `${root}a/../../escape`]),
        `${root}%2e%2e/escape`,
        `${root}a%2Fb`,
        `${root.replace('http://', 'http://user:pass@')}x`,
        'relative/path',
      ];
      for (const uri of outside) {
        expect(await rejection(a.describe(uri)), uri).toBeInstanceOf(BadRequestError);
        expect(await rejection(a.createChild(uri, [])), uri).toBeInstanceOf(BadRequestError);
      }
      expect(a.client.requestCount).toBe(0);
    });

    it('names the upstream status and URL of a failure, never the credentials', async () => {
      const missing = `${run.workspace.replace(/\/$/, '')}/missing-${randomUUID()}`;
      const error = await rejection(adapter().describe(missing));
      expect(error).toBeInstanceOf(UpstreamFailedError);
      expect(error.message).toMatch(
        new RegExp(`^GET ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} answered 404 Not Found`),
      );
      const password = secret();
      if (password !== null && password !== '') expect(error.message).not.toContain(password);
    });

    it('refuses RDF larger than the response limit', async () => {
      const error = await rejection(adapter({ maxRdfBytes: 64 }).describe(run.workspace));
      expect(error).toBeInstanceOf(UpstreamFailedError);
      expect(error.message).toContain('larger than the limit of 64 bytes');
    });
  });
}
