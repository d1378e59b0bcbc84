import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import N3 from 'n3';
import { childEnvironment } from '../child-environment.js';
import { startServiceProcess, type ServiceProcess } from '../copies/service-process.js';
import type { TestDatabase } from '../test-database.js';

/**
 * One of the scale-out test's service instances: a port and a data directory of its own (kept across a
 * restart, as a host's would be), the shared database and S3 bucket through `shared` (environment).
 */
export class Instance {
  process: ServiceProcess | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
    readonly dataDir: string,
    private readonly database: TestDatabase,
    private readonly shared: Record<string, string>,
    /** The embedded repository's Basic credentials, as an Authorization header. */
    private readonly authorization: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    const pid = this.process?.child.pid;
    if (pid === undefined) throw new Error(`${this.name} is not running`);
    return pid;
  }

  async start(): Promise<void> {
    this.process = await startServiceProcess(
      childEnvironment(this.dataDir, this.database, { ...this.shared, PORT: String(this.port) }),
    );
  }

  /** SIGKILL: no shutdown of any kind. */
  async kill(): Promise<void> {
    await this.process?.kill('SIGKILL');
    this.process = undefined;
  }

  /** A request to this instance's embedded repository (`/rest/...`) with its Basic credentials. */
  rest(
    method: string,
    repositoryPath: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ): Promise<Response> {
    return fetch(`${this.url}/rest/${repositoryPath}`, {
      method,
      headers: { authorization: this.authorization, ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : new Uint8Array(body) }),
    });
  }
}

/** Every file under `dir` (relative paths) with its size. */
export function filesUnder(dir: string): { file: string; size: number }[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => ({ file, stat: fs.statSync(path.join(dir, file)) }))
    .filter(({ stat }) => stat.isFile())
    .map(({ file, stat }) => ({ file, size: stat.size }));
}

export function sha256(bytes: Buffer | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const PREMIS = 'http://www.loc.gov/premis/rdf/v1#';

/** What `fcr:fixity` reports for `binary` (Fedora's premis shape). */
export function fixityReport(
  turtle: string,
  binary: string,
): { outcome: string[]; digests: string[]; size: string[] } {
  const store = new N3.Store(new N3.Parser({ baseIRI: binary }).parse(turtle));
  const [result] = store.getObjects(binary, `${PREMIS}hasFixity`, null);
  if (result === undefined) throw new Error(`no premis:hasFixity for ${binary} in ${turtle}`);
  const values = (predicate: string) =>
    store.getObjects(result, `${PREMIS}${predicate}`, null).map((o) => o.value);
  return { outcome: values('hasEventOutcome'), digests: values('hasMessageDigest'), size: values('hasSize') };
}
