/** The service's JSON API as the context bench drives it (sets up data, reads contexts back). */

interface Envelope {
  meta: { status: string; message: string };
  payload: Record<string, unknown>;
}

export interface WireTriple {
  subject: string;
  predicate: string;
  object: string;
}

export interface ContextJson {
  name: string | null;
  metadata: WireTriple[];
  properties: WireTriple[];
  children: { triple: WireTriple | null }[];
}

export interface View {
  readonly id: number;
  /** `/repository-view-context/<type>/<id>` */
  readonly prefix: string;
  /** The view's root, ending with `/`. */
  readonly root: string;
}

export class Api {
  constructor(
    readonly url: string,
    readonly auth: Readonly<Record<string, string>>,
  ) {}

  async call(method: string, route: string, body?: unknown): Promise<Envelope> {
    const response = await fetch(this.url + route, {
      method,
      headers: body === undefined ? this.auth : { 'content-type': 'application/json', ...this.auth },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      throw new Error(`${method} ${route} → ${response.status} ${text.slice(0, 300)}`);
    }
    if (!response.ok || envelope.meta.status !== 'SUCCESS') {
      throw new Error(`${method} ${route} → ${response.status} ${text.slice(0, 500)}`);
    }
    return envelope;
  }

  async context(view: View, uri: string, suffix = '', method = 'GET', body?: unknown): Promise<ContextJson> {
    const route = `${view.prefix}${suffix}?contextUri=${encodeURIComponent(uri)}`;
    return (await this.call(method, route, body)).payload.RepositoryViewContext as ContextJson;
  }
}

export const childUris = (context: ContextJson) =>
  context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object]));

/** Runs `tasks` with at most `limit` at a time. */
export async function pool(tasks: (() => Promise<unknown>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}
