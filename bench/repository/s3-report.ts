import fs from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RESULTS } from '../shared/settings.js';
import type { S3Series } from './s3-transfers.js';

/** The heading the S3 section starts with; a run of the S3 series alone replaces the section after it. */
export const S3_HEADING = '## Binary store on S3 (s3rver)';

const ms = (value: number) => value.toFixed(0);
const times = (value: number) => `${value.toFixed(2)}×`;

/** The S3 series as Markdown (issue 33: target ≤ 1.5× the bare SDK's floor). */
export function s3ReportLines(series: S3Series | undefined): string[] {
  if (series === undefined) return [S3_HEADING, '', 'Not run (BENCH_PARTS).', ''];
  const m = series.medians;
  const r = series.ratios;
  return [
    S3_HEADING,
    '',
    `${series.measuredAt} · load average at its start ${series.loadAverage} · ${series.sizeMiB} MiB binary, ` +
      `${series.runs.length} runs (medians; each ratio is the median of the runs' own ratios).`,
    '',
    'The service (`node .bench-build/src/main.js`, SQLite for its records, `SCRIPTORIUM_BINARY_STORE=s3://…`) and ' +
      's3rver (the tests’ stand-in for S3, in a child process of its own) run here; the bench PUTs the binary ' +
      'through `/rest` (streamed in 1 MiB chunks) and GETs it back. The floors are the same bytes put and got ' +
      'with the bare AWS SDK (the store’s client settings) against the same s3rver in the same run: ' +
      '`PutObjectCommand` with the whole body in memory (one request), and lib-storage’s `Upload` streaming ' +
      `with the store’s part size (${series.partMiB} MiB) and parts in flight (${series.partsInFlight}). ` +
      '**The issue’s target (≤ 1.5×) is read against `PutObjectCommand` for the upload and `GetObjectCommand` for ' +
      'the download.** The other columns say where the upload’s time goes: the PUT declares its length, so the ' +
      'store streams it into one `PutObjectCommand` (a multipart upload like `Upload` only when the length is ' +
      'unknown or over 5 GiB), hashing every byte (SHA-512 and SHA-256, one pass), then copies the finished ' +
      'object onto its content key on the server (`CopyObjectCommand`) and deletes the upload. The **relay floor** ' +
      'is bare Node HTTP in a child process of its own that streams a PUT into `Upload` (the same part size and ' +
      'parts in flight) and a GET out of `GetObjectCommand`, driven over HTTP exactly as the service is; its ' +
      'upload pays for a multipart upload the store no longer makes, so it is no floor for the upload any more.',
    '',
    '| | service ms | PutObject ms | Upload (multipart) ms | CopyObject ms | SHA-512+SHA-256 ms | relay floor ms | ÷ PutObject (target ≤ 1.5×) | ÷ Upload | ÷ (Upload + CopyObject) | ÷ relay floor |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| upload (PUT /rest) | ${ms(m.serviceUploadMs)} | ${ms(m.putMs)} | ${ms(m.uploadHelperMs)} | ${ms(m.copyMs)} | ` +
      `${ms(m.hashMs)} | ${ms(m.relayUploadMs)} | ${times(r.uploadToPut)} | ${times(r.uploadToUploadHelper)} | ` +
      `${times(r.uploadToUploadHelperPlusCopy)} | ${times(r.uploadToRelay)} |`,
    '',
    '| | service ms | GetObject ms | relay floor ms | ÷ GetObject (target ≤ 1.5×) | ÷ relay floor |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    `| download (GET /rest) | ${ms(m.serviceDownloadMs)} | ${ms(m.getMs)} | ${ms(m.relayDownloadMs)} | ` +
      `${times(r.downloadToGet)} | ${times(r.downloadToRelay)} |`,
    '',
    'Every run (ms): ' +
      series.runs
        .map(
          (run, i) =>
            `${i + 1}: up ${ms(run.serviceUploadMs)} / put ${ms(run.putMs)} / Upload ${ms(run.uploadHelperMs)} / ` +
            `copy ${ms(run.copyMs)} / hash ${ms(run.hashMs)} / relay ${ms(run.relayUploadMs)}, ` +
            `down ${ms(run.serviceDownloadMs)} / get ${ms(run.getMs)} / relay ${ms(run.relayDownloadMs)}`,
        )
        .join('; ') +
      '.',
    '',
  ];
}

/**
 * The S3 series run alone (`npm run bench:repository -- --only s3`): its section of repository.md and its
 * key of repository.json are replaced, the other parts' figures kept from their own run.
 */
export async function writeS3Only(series: S3Series): Promise<void> {
  const mdFile = path.join(RESULTS, 'repository.md');
  const jsonFile = path.join(RESULTS, 'repository.json');
  const md = fs.existsSync(mdFile) ? await readFile(mdFile, 'utf8') : '# Embedded repository benchmark\n';
  const kept = md.includes(S3_HEADING) ? md.slice(0, md.indexOf(S3_HEADING)) : `${md.trimEnd()}\n\n`;
  const lines = s3ReportLines(series);
  await writeFile(mdFile, `${kept}${lines.join('\n')}`);
  const json = fs.existsSync(jsonFile)
    ? (JSON.parse(await readFile(jsonFile, 'utf8')) as Record<string, unknown>)
    : {};
  await writeFile(jsonFile, `${JSON.stringify({ ...json, s3: series }, null, 2)}\n`);
  console.log(
    `\n${lines.join('\n')}\nWrote the S3 section of bench/results/repository.md and repository.json`,
  );
}
