/** A plain-text table: numbers right-aligned, everything else left-aligned, two spaces between columns. */
export function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (typeof c === 'number' ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
