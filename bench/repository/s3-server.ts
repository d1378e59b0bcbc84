import { spawn } from 'node:child_process';
import { ROOT } from '../shared/settings.js';

/**
 * The S3 series' helper processes, each a child of its own so that no two share an event loop: s3rver
 * (the S3-protocol server the tests use as a stand-in for S3), and the relay floor (bare Node HTTP that
 * streams a PUT into the SDK's `Upload` and a GET out of `GetObjectCommand`: the least any service that
 * passes bytes through to S3 must do).
 */
export interface ScriptChild {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const S3RVER = `
import S3rver from 's3rver';
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[1] });
const { port } = await server.run();
console.log('LISTENING ' + port);
`;

const RELAY = `
import http from 'node:http';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
const [endpoint, bucket, partSize, queueSize] = process.argv.slice(1);
const s3 = new S3Client({
  endpoint, forcePathStyle: true, region: 'us-east-1',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
});
const server = http.createServer(async (request, response) => {
  const Key = 'relay' + request.url;
  try {
    if (request.method === 'PUT') {
      await new Upload({ client: s3, params: { Bucket: bucket, Key, Body: request },
        partSize: Number(partSize), queueSize: Number(queueSize), leavePartsOnError: false }).done();
      response.writeHead(201).end();
    } else {
      const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
      response.writeHead(200, { 'content-length': String(answer.ContentLength) });
      answer.Body.pipe(response);
    }
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
server.listen(0, '127.0.0.1', () => console.log('LISTENING ' + server.address().port));
`;

async function startScript(name: string, script: string, args: readonly string[]): Promise<ScriptChild> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, ...args], {
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
      reject(new Error(`${name} did not start: ${output}`));
    }, 30_000);
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      const match = /LISTENING (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${String(code)}): ${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export function startS3Server(directory: string): Promise<ScriptChild> {
  return startScript('s3rver', S3RVER, [directory]);
}

export function startRelay(
  endpoint: string,
  bucket: string,
  partBytes: number,
  partsInFlight: number,
): Promise<ScriptChild> {
  return startScript('the relay floor', RELAY, [endpoint, bucket, String(partBytes), String(partsInFlight)]);
}
