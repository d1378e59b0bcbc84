import fs from 'node:fs';

/**
 * What Linux's /proc says about one process: CPU time and resident memory. The scale bench reads the
 * service's own figures, so the load generator in the parent does not count.
 */

// USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux the bench runs on.
const TICK_MS = 10;

/** User + system CPU time of `pid` so far, in milliseconds (10 ms resolution). */
export function cpuMs(pid: number): number {
  // The command name (field 2) may contain spaces; the fields after its closing parenthesis do not.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * TICK_MS;
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? '0');
}

/** Resident memory now, KiB. */
export const rssNowKiB = (pid: number) => statusKiB(pid, 'VmRSS');
/** Peak resident memory since the process started or since `resetPeakRss`, KiB. */
export const peakRssKiB = (pid: number) => statusKiB(pid, 'VmHWM');

/**
 * Resets the kernel's peak-RSS mark (VmHWM) to the current RSS (Linux ≥ 4.0: writing 5 to clear_refs).
 * Returns false where that is not allowed; callers then sample VmRSS instead.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
