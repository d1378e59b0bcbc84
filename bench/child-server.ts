import { spawn } from 'node:child_process';

/** A server under test, running in its own process so it never shares the load generator's event loop. */
export interface ChildServer {
  readonly name: string;
  readonly url: string;
  /** The process id (the bench reads its CPU time from /proc). */
  readonly pid: number;
  /** Why the process ended early, or undefined while it runs. */
  exited(): string | undefined;
  stop(): Promise<void>;
}

// Fastify's own line: {"level":30,…,"msg":"Server listening at http://127.0.0.1:41234"}
const LISTENING = /"msg":"Server listening at (http:\/\/[^"\s]+:\d+)"/;
// Settings of the developer's shell that would change what is measured; the bench sets its own.
const SCRUBBED = ['DATABASE_URL', 'PORT', 'HOST', 'LOG_LEVEL', 'NODE_OPTIONS'];

/**
 * Starts `node <entry>` for a compiled entry (.js), `node --import tsx <entry>` for a TypeScript one
 * (under the CPU profiler when BENCH_CPU_PROF_DIR is set), and resolves
 * once its "Server listening" log line names the port.
 * Afterwards stdout (the info-level request log) is still drained, undecoded and discarded, so the
 * child never blocks on a full pipe.
 */
export function startChildServer(
  name: string,
  entry: string,
  env: Readonly<Record<string, string>>,
  cwd: string,
  timeoutMs = 60_000,
): Promise<ChildServer> {
  const childEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !SCRUBBED.includes(key) && !key.startsWith('SCRIPTORIUM_')),
  ) as Record<string, string>;
  // BENCH_CPU_PROF_DIR: every child writes a V8 CPU profile there when it stops (see PROFILE.md, Method).
  const profiling = process.env.BENCH_CPU_PROF_DIR;
  const profiler = profiling === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profiling}`];
  // A compiled entry (.js) runs as the service runs in production, without the loader.
  const loader = entry.endsWith('.js') ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...profiler, ...loader, entry], {
    cwd,
    env: { ...childEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderrTail = '';
  let exitReason: string | undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitReason = `exited with ${signal ?? `code ${String(code)}`}`;
      resolve();
    });
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-4000);
  });

  const stop = async (): Promise<void> => {
    if (exitReason !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
    await exitedPromise;
    clearTimeout(timer);
  };

  return new Promise<ChildServer>((resolve, reject) => {
    let head = '';
    let found = false;
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`${name} (${entry}) ${why}\n${stderrTail.trim()}`));
    };
    const timer = setTimeout(() => {
      fail(`did not log its port within ${timeoutMs / 1000} s`);
    }, timeoutMs);
    void exitedPromise.then(() => {
      if (!found) fail(exitReason ?? 'exited');
    });
    // Buffers, not strings: once the port is known the request log is dropped without being decoded.
    const onData = (chunk: Buffer) => {
      head = (head + chunk.toString('latin1')).slice(-16_000);
      const match = LISTENING.exec(head);
      if (match === null) return;
      found = true;
      head = '';
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining the pipe, discarding what arrives
      resolve({ name, url: match[1]!, pid: child.pid ?? 0, exited: () => exitReason, stop });
    };
    child.stdout.on('data', onData);
  });
}
