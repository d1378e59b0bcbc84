/**
 * Runs the s3rver STAND-IN FOR S3 until killed, for `.ci/run`: `tsx serve-s3-stand-in.ts <port> <directory>`.
 * Test files that do not stop their server use it through TEST_S3_ENDPOINT (s3-stand-in.ts).
 */
import { startS3StandIn } from './s3-stand-in.js';

const [port, directory] = process.argv.slice(2);
if (port === undefined || directory === undefined) {
  console.error('usage: serve-s3-stand-in.ts <port> <directory>');
  process.exit(2);
}
const standIn = await startS3StandIn({ port: Number(port), directory });
console.log(`s3rver stand-in for S3 on ${standIn.endpoint}, objects in ${directory}`);
