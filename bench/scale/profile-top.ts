import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { RESULTS } from '../shared/settings.js';

/**
 * Top functions of a service profile (`node --cpu-prof`), optionally cut to the measured requests of one
 * size of the scale bench: `npx tsx bench/scale/profile-top.ts <file.cpuprofile> [<scenario key> <size>
 * [<scale.json>]]`. Self time is where samples landed; inclusive time counts a function once per sample
 * whose stack holds it (after an `await` the stack starts at the continuation, so inclusive figures of
 * async callers are low).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface ScaleJson {
  scenarios: { key: string; sizes: { size: number; clockUs?: [number, number] }[] }[];
}

const [file, key, size, report = path.join(RESULTS, 'scale.json')] = process.argv.slice(2);
if (file === undefined)
  throw new Error('usage: profile-top.ts <file.cpuprofile> [<scenario key> <size> [<scale.json>]]');
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;

let window: [number, number] = [-Infinity, Infinity];
if (key !== undefined && size !== undefined) {
  const scale = JSON.parse(await readFile(report, 'utf8')) as ScaleJson;
  const found = scale.scenarios
    .find((s) => s.key === key)
    ?.sizes.find((s) => s.size === Number(size))?.clockUs;
  if (found === undefined) throw new Error(`no measured window for ${key} @ ${size} in ${report}`);
  window = found;
}

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: ProfileNode) => {
  const where = n.callFrame.url.replace(/^file:\/\/.*?\/(src|node_modules)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${where}:${n.callFrame.lineNumber + 1}`;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let time = profile.startTime;
let total = 0;
profile.samples.forEach((id, i) => {
  time += profile.timeDeltas[i] ?? 0;
  if (time < window[0] || time > window[1]) return;
  total++;
  const leaf = byId.get(id)!;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + 1);
  const seen = new Set<string>();
  for (let n: ProfileNode | undefined = leaf; n !== undefined; n = byId.get(parent.get(n.id) ?? -1)) {
    const l = label(n);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + 1);
  }
});

const top = (counts: Map<string, number>, n: number) =>
  [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([l, c]) => `${((100 * c) / total).toFixed(1).padStart(5)} %  ${l}`)
    .join('\n');
console.log(`${total} samples${key === undefined ? '' : ` in ${key} @ ${size}`}\n\nself:\n${top(self, 25)}`);
console.log(`\ninclusive:\n${top(inclusive, 30)}`);
