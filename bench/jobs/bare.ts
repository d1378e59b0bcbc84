import http from 'node:http';

/**
 * Bare upstream requests of the jobs bench: the floor a job is compared with is the same requests, sent by
 * this process straight to the repository at the job's concurrency, with no service in between.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** One request; `headersOnly` drops the body once the head arrived (as the adapter does for a binary's GET). */
export function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  headersOnly = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      if (headersOnly) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Like `send`, but a status outside 2xx throws (a floor of failed requests would flatter nobody). */
export async function expect2xx(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  headersOnly = false,
): Promise<Answer> {
  const answer = await send(method, url, headers, body, headersOnly);
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${method} ${url} → ${answer.status} ${answer.body.slice(0, 300)}`);
  return answer;
}

/** Runs `tasks` with at most `limit` at once, in order of start. */
export async function inPool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function closeAgent(): void {
  agent.destroy();
}
