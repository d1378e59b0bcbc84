import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * The real service as a child process (`node --import tsx src/main.ts`), for tests that kill the process
 * running a job and resume it in a fresh one on the same database and data directory. The port is chosen
 * by the test, so a fresh process answers at the same origin: the embedded repository's IRIs (and the views
 * and plan rows naming them) stay valid across the restart.
 */
export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly logs: string[];
  readonly exited: Promise<unknown>;
  /** Ends the process (SIGKILL: no shutdown of any kind) and waits until it has. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A loopback port free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Starts the service with `env` (from `childEnvironment`, PORT set); answers once it listens. */
export async function startServiceProcess(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no start-up line; logs:\n${logs.join('')}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      // Only the start-up is looked for; later lines are kept short of memory (the last 200).
      logs.push(chunk.toString());
      if (logs.length > 200) logs.shift();
      const match = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(logs.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before listening; logs:\n${logs.join('')}`));
    });
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    logs,
    exited,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export interface Envelope {
  meta: { status: string; message: string | null };
  payload: Record<string, unknown>;
}

/** The service's API over real HTTP, signed in with a token. */
export class ServiceApi {
  constructor(
    readonly url: string,
    private readonly token: string | undefined,
  ) {}

  static async signIn(url: string, username: string, password: string): Promise<ServiceApi> {
    const signedIn = await new ServiceApi(url, undefined).ok('POST', '/auth/login', { username, password });
    return new ServiceApi(url, (signedIn.AuthToken as { token: string }).token);
  }

  /** The same session against another process of the same database (tokens are kept there). */
  at(url: string): ServiceApi {
    return new ServiceApi(url, this.token);
  }

  async call(method: string, path: string, payload?: unknown): Promise<Envelope> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
      },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
    return (await response.json()) as Envelope;
  }

  /** A GET answering something else than an envelope (a CSV download); throws unless 200. */
  async text(path: string): Promise<{ contentType: string | null; body: string }> {
    const response = await fetch(`${this.url}${path}`, {
      headers: this.token === undefined ? {} : { authorization: `Bearer ${this.token}` },
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 300)}`);
    return { contentType: response.headers.get('content-type'), body };
  }

  /** A call that must answer SUCCESS; answers its payload. */
  async ok(method: string, path: string, payload?: unknown): Promise<Record<string, unknown>> {
    const envelope = await this.call(method, path, payload);
    if (envelope.meta.status !== 'SUCCESS')
      throw new Error(`${method} ${path}: ${envelope.meta.status} ${envelope.meta.message}`);
    return envelope.payload;
  }
}
