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
  peakRssMiB: number;
  idleRssMiB: number;
  smallUploadPeakRssMiB: number;
}

export interface DiskFloor {
  writeMs: number;
  readMs: number;
  /** `sha512sum` of the file written (the bytes uploaded), warm in the page cache as a stored binary is. */
  sha512sumMs: number;
}

/** Streams `size` bytes (1 MiB chunks of `chunk`) in one PUT, sampling the server's RSS meanwhile. */
async function upload(
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

async function download(target: Target, url: string, size: number): Promise<number> {
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
 * `sha512sum` of that file: the floor for a fixity check.
 */
async function diskFloor(dir: string, size: number, chunk: Buffer): Promise<DiskFloor> {
  const file = path.join(dir, 'disk-baseline.bin');
  const writeTimes: number[] = [];
  const readTimes: number[] = [];
  const sumTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const fd = fs.openSync(file, 'w');
    for (let written = 0; written < size; written += chunk.length) fs.writeSync(fd, chunk);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    writeTimes.push(performance.now() - started);
    const readStarted = performance.now();
    await new Promise<void>((resolve, reject) => {
      fs.createReadStream(file)
        .on('data', () => undefined)
        .on('end', resolve)
        .on('error', reject);
    });
    readTimes.push(performance.now() - readStarted);
    sumTimes.push(sha512sum(file));
  }
  fs.rmSync(file, { force: true });
  const disk = { writeMs: median(writeTimes), readMs: median(readTimes), sha512sumMs: median(sumTimes) };
  console.log(
    `   disk: write+fsync ${disk.writeMs.toFixed(0)} ms, read ${disk.readMs.toFixed(0)} ms, ` +
      `sha512sum ${disk.sha512sumMs.toFixed(0)} ms for ${uploadMiB} MiB`,
  );
  return disk;
}

/** One server: idle memory, a 10 MiB upload's peak, then `runs` large uploads, downloads and fixity checks. */
async function transfer(target: Target, targets: readonly Target[], size: number, chunk: Buffer) {
  const idle = rssKiB(target.pid);
  await settle(targets);
  const small = await upload(
    target,
    `${target.base}small-${Date.now().toString(36)}.bin`,
    10 * 1024 * 1024,
    chunk,
  );
  const uploads: number[] = [];
  const downloads: number[] = [];
  const fixities: number[] = [];
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    const url = `${target.base}large-${Date.now().toString(36)}-${i}.bin`;
    const up = await upload(target, url, size, chunk);
    uploads.push(up.ms);
    peak = Math.max(peak, up.peakKiB);
    downloads.push(await download(target, url, size));
    const fixityMs = await fixity(target, url);
    if (fixityMs !== undefined) fixities.push(fixityMs);
    await request('DELETE', url, target.headers).catch(() => undefined);
  }
  const result: TransferResult = {
    target: target.name,
    uploadMs: median(uploads),
    downloadMs: median(downloads),
    fixityMs: fixities.length === 0 ? undefined : median(fixities),
    peakRssMiB: peak / 1024,
    idleRssMiB: idle / 1024,
    smallUploadPeakRssMiB: small.peakKiB / 1024,
  };
  console.log(
    `   ${target.name}: upload ${result.uploadMs.toFixed(0)} ms, download ${result.downloadMs.toFixed(0)} ms, ` +
      `fixity ${result.fixityMs === undefined ? '—' : `${result.fixityMs.toFixed(0)} ms`}, RSS idle ${result.idleRssMiB.toFixed(0)} MiB, peak ${result.peakRssMiB.toFixed(0)} MiB (${uploadMiB} MiB) / ` +
      `${result.smallUploadPeakRssMiB.toFixed(0)} MiB (10 MiB)`,
  );
  return result;
}

export async function largeTransfers(
  targets: readonly Target[],
  dir: string,
): Promise<{ disk: DiskFloor; results: TransferResult[] }> {
  const size = uploadMiB * 1024 * 1024;
  const chunk = randomBytes(1024 * 1024);
  const disk = await diskFloor(dir, size, chunk);
  const results: TransferResult[] = [];
  for (const target of targets) results.push(await transfer(target, targets, size, chunk));
  return { disk, results };
}
