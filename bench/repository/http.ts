import http from 'node:http';
import { LDP, type Target } from './settings.js';

/** One keep-alive agent for every request of the bench outside autocannon; destroyed at the end. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export function request(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string | Buffer,
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(url, { method, headers, agent }, (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data });
        });
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

export async function createContainer(target: Target, parent: string, slug: string): Promise<string> {
  const response = await request(
    'POST',
    parent,
    { ...target.headers, slug, link: `<${LDP}BasicContainer>; rel="type"`, 'content-type': 'text/turtle' },
    '',
  );
  if (response.status !== 201)
    throw new Error(`${target.name}: POST ${parent} → ${response.status} ${response.body}`);
  return String(response.headers.location);
}
