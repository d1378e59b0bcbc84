import { envInt } from '../shared/settings.js';

/** Load and sizes of the repository bench; BENCH_* variables shorten or lengthen the runs. */
export const CONNECTIONS = 10;
export const PASSWORD = 'bench-repository-password';
export const AUTH = `Basic ${Buffer.from(`fedoraAdmin:${PASSWORD}`).toString('base64')}`;
export const LDP = 'http://www.w3.org/ns/ldp#';
export const TITLE = 'http://purl.org/dc/terms/title';

export const duration = envInt('BENCH_DURATION', 5, 1);
export const runs = envInt('BENCH_RUNS', 3, 1);
export const uploadMiB = envInt('BENCH_UPLOAD_MIB', 100, 1);

/** A server under test: where its LDP root is, its process (for CPU and memory), how to stop it. */
export interface Target {
  readonly name: string;
  readonly base: string;
  readonly pid: number;
  readonly headers: Record<string, string>;
  /** Where metadata of a container is patched (Fedora: the container; CSS: its .meta). */
  patchUrl(container: string): string;
  stop(): Promise<void>;
}
