import { spawn } from 'node:child_process';
import { ROOT } from '../shared/settings.js';

/**
 * s3rver (the S3-protocol server the tests use as a stand-in for S3) in a child process of its own, so
 * that neither the service nor the bare SDK floor shares an event loop with it: both sides of a ratio
 * talk to the same server over loopback TCP.
 */
export interface S3Server {
  readonly endpoint: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const SCRIPT = `
import S3rver from 's3rver';
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[1] });
const { port } = await server.run();
console.log('S3RVER_PORT ' + port);
`;

export async function startS3Server(directory: string): Promise<S3Server> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, directory], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`s3rver did not start: ${output}`));
    }, 30_000);
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      const match = /S3RVER_PORT (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${String(code)}): ${output}`));
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
