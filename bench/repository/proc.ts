import fs from 'node:fs';
import type { Target } from './settings.js';

/** What Linux's /proc says about a server under test: its pid, CPU time and resident memory. */

/** The pid of the process listening on a local TCP port, for memory sampling. */
export function pidListeningOn(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) === true && cols[3] === '0A' && cols[9] !== undefined)
        inodes.add(cols[9]);
    }
  }
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(link);
        if (match?.[1] !== undefined && inodes.has(match[1])) return Number(pid);
      }
    } catch {
      // a process we may not inspect, or one that just exited
    }
  }
  throw new Error(`no process found listening on port ${port}`);
}

function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
}

/** Waits (at most 60 s) until every server is idle, so one's backlog does not slow the other's run. */
export async function settle(targets: readonly Target[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const before = targets.map((t) => cpuTicks(t.pid));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const busy = targets.some((t, i) => cpuTicks(t.pid) - (before[i] ?? 0) > 3);
    if (!busy) return;
  }
}

export function rssKiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? '0');
}
