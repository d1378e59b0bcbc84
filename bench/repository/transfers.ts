import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { median } from '../shared/median.js';
import { agent, request } from './http.js';
import { rssKiB, settle } from './proc.js';
import { runs, uploadMiB, type Target } from './settings.js';

/**
 * Large binaries: a streamed upload and download per server, against the same bytes on disk, and a fixity
 * check where the server has one (fcr:fixity), against `sha512sum` of the same bytes.
 */

export interface TransferResult {
  target: string;
  uploadMs: number;
  downloadMs: number;
  /** GET <binary>/fcr:fixity; undefined for a server without it. */
  fixityMs: number | undefined;
  /**
   * Medians of each run's ratio to the floor sampled just before it: the upload against the slower of
   * write+fsync and `sha512sum` (an upload must do both), the download against a plain read, the fixity
   * check against `sha512sum`.
   */
  uploadRatio: number;
  downloadRatio: number;
  fixityRatio: number | undefined;
  peakRssMiB: number;
  idleRssMiB: number;
  smallUploadPeakRssMiB: number;
  /** Every run: the times and the floor they are compared with. */
  runs: { uploadMs: number; downloadMs: number; fixityMs: number | undefined; disk: DiskFloor }[];
}

export interface DiskFloor {
  writeMs: number;
  readMs: number;
  /** `sha512sum` of the file written (the bytes uploaded), warm in the page cache as a stored binary is. */
  sha512sumMs: number;
}

/** What an upload cannot beat: it writes and fsyncs the bytes and computes their SHA-512. */
export function uploadFloorMs(disk: DiskFloor): number {
  return Math.max(disk.writeMs, disk.sha512sumMs);
}

/** Streams `size` bytes (1 MiB chunks of `chunk`) in one PUT, sampling the server's RSS meanwhile. */
export async function upload(
  target: Target,
  url: string,
  size: number,
  chunk: Buffer,
): Promise<{ ms: number; peakKiB: number }> {
  let peak = rssKiB(target.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKiB(target.pid));
  }, 20);
  const started = performance.now();
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(url, {
      method: 'PUT',
      agent,
      headers: {
        ...target.headers,
        'content-type': 'application/octet-stream',
        'content-length': String(size),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = sent + chunk.length <= size ? chunk : chunk.subarray(0, size - sent);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssKiB(target.pid));
  if (status < 200 || status >= 300) throw new Error(`${target.name}: upload → ${status}`);
  return { ms, peakKiB: peak };
}

export async function download(target: Target, url: string, size: number): Promise<number> {
  const started = performance.now();
  const received = await new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent, headers: target.headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          resolve(bytes);
        });
      })
      .on('error', reject);
  });
  if (received !== size) throw new Error(`${target.name}: downloaded ${received} of ${size} bytes`);
  return performance.now() - started;
}

/**
 * The time of a fixity check (the server re-reads and hashes the binary), or undefined when the server
 * answers no fixity outcome (Community Solid Server has no fcr:fixity).
 */
async function fixity(target: Target, url: string): Promise<number | undefined> {
  const started = performance.now();
  const response = await request('GET', `${url}/fcr:fixity`, { ...target.headers, accept: 'text/turtle' });
  const ms = performance.now() - started;
  if (response.status !== 200 || !response.body.includes('hasEventOutcome')) return undefined;
  if (!response.body.includes('SUCCESS')) throw new Error(`${target.name}: fixity failed: ${response.body}`);
  return ms;
}

function sha512sum(file: string): number {
  const started = performance.now();
  const result = spawnSync('sha512sum', [file], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0)
    throw new Error(`sha512sum ${file} failed (${String(result.error ?? result.status)})`);
  return performance.now() - started;
}

/**
 * The same bytes written to (fsync) and read from disk: the floor for a streamed upload/download; and
 * `sha512sum` of that file: the floor for a fixity check. One sample, taken in every run just before the
 * servers' transfers, so a busier moment of the machine weighs on both sides of a ratio.
 */
async function diskSample(dir: string, size: number, chunk: Buffer): Promise<DiskFloor> {
  const file = path.join(dir, 'disk-baseline.bin');
  const started = performance.now();
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < size; written += chunk.length) fs.writeSync(fd, chunk);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  const writeMs = performance.now() - started;
  const readStarted = performance.now();
  await new Promise<void>((resolve, reject) => {
    fs.createReadStream(file)
      .on('data', () => undefined)
      .on('end', resolve)
      .on('error', reject);
  });
  const readMs = performance.now() - readStarted;
  const sha512sumMs = sha512sum(file);
  fs.rmSync(file, { force: true });
  console.log(
    `   disk: write+fsync ${writeMs.toFixed(0)} ms, read ${readMs.toFixed(0)} ms, ` +
      `sha512sum ${sha512sumMs.toFixed(0)} ms for ${uploadMiB} MiB`,
  );
  return { writeMs, readMs, sha512sumMs };
}

/** One run of one server: a large upload, its download and fixity check, then the binary deleted. */
async function transferOnce(target: Target, size: number, chunk: Buffer, run: number) {
  const url = `${target.base}large-${Date.now().toString(36)}-${run}.bin`;
  const up = await upload(target, url, size, chunk);
  const downloadMs = await download(target, url, size);
  const fixityMs = await fixity(target, url);
  await request('DELETE', url, target.headers).catch(() => undefined);
  return { uploadMs: up.ms, peakKiB: up.peakKiB, downloadMs, fixityMs };
}

/**
 * Each server's idle memory and a 10 MiB upload's peak, then `runs` rounds: a disk sample, and every
 * server's large upload, download and fixity check.
 */
export async function largeTransfers(
  targets: readonly Target[],
  dir: string,
): Promise<{ disk: DiskFloor; results: TransferResult[] }> {
  const size = uploadMiB * 1024 * 1024;
  const chunk = randomBytes(1024 * 1024);
  const first = targets.map(() => ({ idle: 0, small: 0 }));
  for (const [i, target] of targets.entries()) {
    const idle = rssKiB(target.pid);
    await settle(targets);
    const small = `${target.base}small-${Date.now().toString(36)}.bin`;
    first[i] = { idle, small: (await upload(target, small, 10 * 1024 * 1024, chunk)).peakKiB };
  }
  const samples: DiskFloor[] = [];
  const done = targets.map(() => [] as (TransferResult['runs'][number] & { peakKiB: number })[]);
  for (let run = 0; run < runs; run++) {
    await settle(targets);
    const disk = await diskSample(dir, size, chunk);
    samples.push(disk);
    for (const [i, target] of targets.entries()) {
      await settle(targets);
      const once = await transferOnce(target, size, chunk, run);
      done[i]?.push({ ...once, disk });
      console.log(
        `   ${target.name}: upload ${once.uploadMs.toFixed(0)} ms (${(once.uploadMs / uploadFloorMs(disk)).toFixed(2)}×), ` +
          `download ${once.downloadMs.toFixed(0)} ms, fixity ${once.fixityMs === undefined ? '—' : `${once.fixityMs.toFixed(0)} ms`}`,
      );
    }
  }
  const results = targets.map((target, i): TransferResult => {
    const all = done[i] ?? [];
    const fixities = all.filter((r) => r.fixityMs !== undefined);
    const result: TransferResult = {
      target: target.name,
      uploadMs: median(all.map((r) => r.uploadMs)),
      downloadMs: median(all.map((r) => r.downloadMs)),
      fixityMs: fixities.length === 0 ? undefined : median(fixities.map((r) => r.fixityMs ?? 0)),
      uploadRatio: median(all.map((r) => r.uploadMs / uploadFloorMs(r.disk))),
      downloadRatio: median(all.map((r) => r.downloadMs / r.disk.readMs)),
      fixityRatio:
        fixities.length === 0
          ? undefined
          : median(fixities.map((r) => (r.fixityMs ?? 0) / r.disk.sha512sumMs)),
      peakRssMiB: Math.max(...all.map((r) => r.peakKiB)) / 1024,
      idleRssMiB: (first[i]?.idle ?? 0) / 1024,
      smallUploadPeakRssMiB: (first[i]?.small ?? 0) / 1024,
      runs: all.map(({ uploadMs, downloadMs, fixityMs, disk }) => ({ uploadMs, downloadMs, fixityMs, disk })),
    };
    console.log(
      `   ${result.target}: upload ${result.uploadRatio.toFixed(2)}× its floor, RSS idle ${result.idleRssMiB.toFixed(0)} MiB, ` +
        `peak ${result.peakRssMiB.toFixed(0)} MiB (${uploadMiB} MiB) / ${result.smallUploadPeakRssMiB.toFixed(0)} MiB (10 MiB)`,
    );
    return result;
  });
  const disk: DiskFloor = {
    writeMs: median(samples.map((d) => d.writeMs)),
    readMs: median(samples.map((d) => d.readMs)),
    sha512sumMs: median(samples.map((d) => d.sha512sumMs)),
  };
  return { disk, results };
}
