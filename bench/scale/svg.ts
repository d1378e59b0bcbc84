import type { ScenarioResult } from './series.js';

/**
 * A log-log chart of median time against size, one small panel per scenario (titled by its key, as in
 * scale.md), built as plain SVG text.
 * Each panel also draws the service's CPU ms per request and a dashed line of linear growth through
 * the first point, so a curve steeper than the dashes grows faster than linearly.
 */

const PANEL_W = 320;
const PANEL_H = 230;
const COLUMNS = 3;
const PAD = { left: 50, right: 14, top: 34, bottom: 34 };

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const short = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));
const num = (n: number) => n.toFixed(1);
const duration = (ms: number) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

interface Point {
  x: number;
  y: number;
}

function panel(result: ScenarioResult, left: number, top: number): string {
  const time: Point[] = [];
  const cpu: Point[] = [];
  for (const r of result.sizes) {
    if (r.failure !== undefined) continue;
    if (r.medianMs !== undefined && r.medianMs > 0) time.push({ x: r.size, y: r.medianMs });
    if (r.cpuMsPerRequest !== undefined && r.cpuMsPerRequest > 0)
      cpu.push({ x: r.size, y: r.cpuMsPerRequest });
  }
  const sizes = result.sizes.map((r) => r.size);
  const xs = [Math.log10(Math.min(...sizes)), Math.log10(Math.max(...sizes))];
  const values = [...time, ...cpu].map((p) => p.y);
  const ys =
    values.length === 0
      ? [0, 1]
      : [Math.floor(Math.log10(Math.min(...values))), Math.ceil(Math.log10(Math.max(...values)))];
  if (ys[1]! <= ys[0]!) ys[1] = ys[0]! + 1;
  if (xs[1]! <= xs[0]!) xs[1] = xs[0]! + 1;
  const w = PANEL_W - PAD.left - PAD.right;
  const h = PANEL_H - PAD.top - PAD.bottom;
  const px = (x: number) => left + PAD.left + ((Math.log10(x) - xs[0]!) / (xs[1]! - xs[0]!)) * w;
  const py = (y: number) => top + PAD.top + h - ((Math.log10(y) - ys[0]!) / (ys[1]! - ys[0]!)) * h;
  const parts: string[] = [
    `<text x="${left + PAD.left}" y="${top + 16}" font-size="11" font-weight="bold">${escape(result.key)}</text>`,
    `<rect x="${left + PAD.left}" y="${top + PAD.top}" width="${w}" height="${h}" fill="none" stroke="#999"/>`,
  ];
  for (const size of sizes) {
    parts.push(
      `<line x1="${num(px(size))}" y1="${top + PAD.top}" x2="${num(px(size))}" y2="${top + PAD.top + h}" stroke="#eee"/>`,
      `<text x="${num(px(size))}" y="${top + PAD.top + h + 14}" font-size="10" text-anchor="middle">${short(size)}</text>`,
    );
  }
  for (let e = ys[0]!; e <= ys[1]!; e++) {
    const y = num(py(10 ** e));
    parts.push(
      `<line x1="${left + PAD.left}" y1="${y}" x2="${left + PAD.left + w}" y2="${y}" stroke="#eee"/>`,
      `<text x="${left + PAD.left - 4}" y="${y}" font-size="10" text-anchor="end" dominant-baseline="middle">${duration(10 ** e)}</text>`,
    );
  }
  parts.push(
    `<text x="${left + PAD.left + w / 2}" y="${top + PAD.top + h + 28}" font-size="10" text-anchor="middle">${escape(result.unit)}</text>`,
  );
  const first = time[0];
  const lastSize = Math.max(...sizes);
  if (first !== undefined && lastSize > first.x) {
    // Linear growth from the first point, clipped to the panel's top.
    const endY = Math.min(first.y * (lastSize / first.x), 10 ** ys[1]!);
    const endX = first.x * (endY / first.y);
    parts.push(
      `<line x1="${num(px(first.x))}" y1="${num(py(first.y))}" x2="${num(px(endX))}" y2="${num(py(endY))}" stroke="#888" stroke-dasharray="4 3"/>`,
    );
  }
  for (const [points, color] of [
    [cpu, '#e07b00'],
    [time, '#1f5fbf'],
  ] as const) {
    if (points.length === 0) continue;
    const line = points.map((p) => `${num(px(p.x))},${num(py(p.y))}`).join(' ');
    parts.push(`<polyline points="${line}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const p of points) {
      parts.push(`<circle cx="${num(px(p.x))}" cy="${num(py(p.y))}" r="3" fill="${color}"/>`);
    }
  }
  for (const r of result.sizes.filter((s) => s.failure !== undefined && !s.failure.startsWith('skipped'))) {
    parts.push(
      `<text x="${num(px(r.size))}" y="${top + PAD.top + 12}" font-size="12" fill="#c00" text-anchor="middle">✗</text>`,
    );
  }
  return parts.join('\n');
}

export function renderSvg(scenarios: readonly ScenarioResult[]): string {
  const rows = Math.ceil(scenarios.length / COLUMNS);
  const width = COLUMNS * PANEL_W;
  const height = rows * PANEL_H + 30;
  const panels = scenarios.map((s, i) =>
    panel(s, (i % COLUMNS) * PANEL_W, Math.floor(i / COLUMNS) * PANEL_H),
  );
  const legend =
    `<g font-size="11"><line x1="10" y1="${height - 12}" x2="30" y2="${height - 12}" stroke="#1f5fbf" stroke-width="2"/>` +
    `<text x="34" y="${height - 8}">median time (ms)</text>` +
    `<line x1="150" y1="${height - 12}" x2="170" y2="${height - 12}" stroke="#e07b00" stroke-width="2"/>` +
    `<text x="174" y="${height - 8}">service CPU ms per request</text>` +
    `<line x1="340" y1="${height - 12}" x2="360" y2="${height - 12}" stroke="#888" stroke-dasharray="4 3"/>` +
    `<text x="364" y="${height - 8}">linear growth from the first point</text>` +
    `<text x="580" y="${height - 8}" fill="#c00">✗ failed size</text></g>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n${panels.join('\n')}\n${legend}\n</svg>\n`
  );
}
