/**
 * Small statistics and formatting helpers for the benchmarks. Percentiles use
 * linear interpolation between the closest ranks (numpy's default), so a
 * median of an even-sized sample is the mean of the two middle values.
 */

/** The q-quantile (0 ≤ q ≤ 1) of `values`; NaN for an empty sample. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  if (lower === upper) return sorted[lower];
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/** Median, p90, min, max and mean of a sample of milliseconds. */
export function summarize(values) {
  const mean = values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
  return {
    n: values.length,
    median: quantile(values, 0.5),
    p90: quantile(values, 0.9),
    min: values.length === 0 ? Number.NaN : Math.min(...values),
    max: values.length === 0 ? Number.NaN : Math.max(...values),
    mean,
  };
}

/** a / b, or NaN when b is not a positive number. */
export function ratio(a, b) {
  return b > 0 ? a / b : Number.NaN;
}

/** Rounds for the JSON summary: 3 significant decimals are plenty for milliseconds. */
export function round(value, digits = 3) {
  if (!Number.isFinite(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Milliseconds for the table: fewer decimals as the number grows. */
export function fmtMs(value) {
  if (!Number.isFinite(value)) return '—';
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

export function fmtRatio(value) {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '—';
}

export function fmtBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** A plain-text table: the first row is the header; columns after the first are right-aligned. */
export function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  const line = (row) =>
    row
      .map((cell, column) =>
        column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]),
      )
      .join('  ');
  const [header, ...body] = rows;
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
