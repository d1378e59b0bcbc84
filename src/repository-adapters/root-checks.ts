import { messageOf } from './upstream-exchange.js';
import type { VerificationResult } from './repository-adapter.js';
import { discard, type RepositoryHttpClient, type UpstreamResponse } from './repository-http-client.js';

// The three verifications of a view's root (cap-behaviour.md: ping, auth, content), shared by every
// repository kind; only what makes a root "content" differs, and each adapter passes that judgement in.

const ROOT_ACCEPT = 'text/turtle, */*;q=0.1';

/** One GET of the root, its body discarded: what ping and auth both ask. */
async function getRoot(client: RepositoryHttpClient): Promise<UpstreamResponse> {
  const response = await client.send({
    method: 'GET',
    uri: client.rootUri,
    headers: { accept: ROOT_ACCEPT },
  });
  await discard(response);
  return response;
}

/** ping: any HTTP answer from the root within the timeouts. */
export async function pingRoot(client: RepositoryHttpClient): Promise<VerificationResult> {
  try {
    await getRoot(client);
    return { ok: true };
  } catch (error) {
    return { ok: false, message: `Ping failed: ${messageOf(error)}` };
  }
}

/** auth: the root answers 2xx with the view's credentials. */
export async function checkAuthRoot(client: RepositoryHttpClient): Promise<VerificationResult> {
  try {
    const response = await getRoot(client);
    if (response.status >= 200 && response.status < 300) return { ok: true };
    return { ok: false, message: `Authentication failed. Status ${response.status}` };
  } catch (error) {
    return { ok: false, message: `Authentication failed: ${messageOf(error)}` };
  }
}

/**
 * content: one GET of the root with `headers`; a 2xx answer is handed to `judge`, which reads (or
 * discards) it and says whether the root is what the repository kind expects.
 */
export async function checkRootContent(
  client: RepositoryHttpClient,
  headers: Readonly<Record<string, string>>,
  judge: (response: UpstreamResponse) => Promise<VerificationResult>,
): Promise<VerificationResult> {
  try {
    const response = await client.send({ method: 'GET', uri: client.rootUri, headers });
    if (response.status < 200 || response.status >= 300) {
      return { ok: false, message: `Content check failed: ${(await client.fail(response)).message}` };
    }
    return await judge(response);
  } catch (error) {
    return { ok: false, message: `Content check failed: ${messageOf(error)}` };
  }
}
