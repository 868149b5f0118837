// SPDX-License-Identifier: MIT
// The chart of docs/BENCHMARKS.md: per-step cost of the tool loop against steps of history,
// one line per variant (medians, wall clock), log-log, as a self-contained SVG (no fonts or
// scripts fetched: it renders offline and on GitHub).
import { LOOP_VARIANTS, point } from './stats.mjs';

const COLORS = {
  native_call: '#1f77b4', native_typed: '#17becf', embind: '#2ca02c', wasi: '#9467bd', naive: '#d62728', memcpy: '#7f7f7f',
};
const W = 780;
const H = 450;
const M = { left: 72, right: 230, top: 48, bottom: 56 };

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (v) => (v >= 1 ? String(Number(v.toPrecision(3))) : v.toPrecision(2).replace(/0+$/, ''));

export function renderChart(results) {
  const sizes = results.sizes;
  const series = LOOP_VARIANTS.map(([key, label]) => ({
    key, label, pts: sizes.map((s) => [s, point(results, key, s)?.wall]).filter(([, v]) => Number.isFinite(v) && v > 0),
  })).filter((s) => s.pts.length > 0);
  const values = series.flatMap((s) => s.pts.map(([, v]) => v));
  const yLo = Math.floor(Math.log10(Math.min(...values)));
  const yHi = Math.ceil(Math.log10(Math.max(...values)));
  const xLo = Math.log10(sizes[0]) - 0.15;
  const xHi = Math.log10(sizes[sizes.length - 1]) + 0.15;
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (s) => M.left + ((Math.log10(s) - xLo) / (xHi - xLo)) * pw;
  const y = (v) => M.top + ph - ((Math.log10(v) - yLo) / Math.max(1, yHi - yLo)) * ph;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${M.left}" y="22" font-size="15" font-weight="bold">Per-step cost of the tool loop (1 KB tool outputs)</text>`);
  out.push(`<text x="${M.left}" y="38" fill="#555">median wall-clock ms per step, body in hand as bytes; log-log; ${esc(results.facts.date.slice(0, 10))}, ${results.facts.nproc} cores, node ${esc(results.facts.node)}</text>`);
  for (let e = yLo; e <= yHi; ++e) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (Math.log10(v) > yHi + 1e-9) continue;
      const yy = y(v).toFixed(1);
      out.push(`<line x1="${M.left}" x2="${M.left + pw}" y1="${yy}" y2="${yy}" stroke="${m === 1 ? '#ccc' : '#eee'}"/>`);
      out.push(`<text x="${M.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#444">${fmt(v)}</text>`);
    }
  }
  for (const s of sizes) {
    const xx = x(s).toFixed(1);
    out.push(`<line x1="${xx}" x2="${xx}" y1="${M.top}" y2="${M.top + ph}" stroke="#eee"/>`);
    out.push(`<text x="${xx}" y="${M.top + ph + 18}" text-anchor="middle" fill="#444">${s}</text>`);
  }
  out.push(`<rect x="${M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="none" stroke="#888"/>`);
  out.push(`<text x="${M.left + pw / 2}" y="${H - 14}" text-anchor="middle">steps of history (body ≈ 1.2 KB per step)</text>`);
  out.push(`<text transform="translate(18 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">ms per step</text>`);
  series.forEach((s, i) => {
    const color = COLORS[s.key] ?? '#000';
    const dash = s.key === 'memcpy' ? ' stroke-dasharray="5 4"' : '';
    const d = s.pts.map(([st, v], j) => `${j ? 'L' : 'M'}${x(st).toFixed(1)} ${y(v).toFixed(1)}`).join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2.2"${dash}/>`);
    for (const [st, v] of s.pts) out.push(`<circle cx="${x(st).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5" fill="${color}"/>`);
    const ly = M.top + 10 + i * 22;
    const lx = M.left + pw + 16;
    out.push(`<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2.2"${dash}/>`);
    out.push(`<text x="${lx + 28}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
