export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Times as the API has them (UTC), said so: a dashboard read in another zone must not mislead. */
export function when(epochSeconds: number | null | undefined): string {
  return epochSeconds ? `${new Date(epochSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC` : '—';
}

export function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p class="muted">Nothing yet.</p>';
  return `<table><thead><tr>${headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}
