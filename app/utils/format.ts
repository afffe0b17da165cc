const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const full = new Intl.NumberFormat("en-US");

export function formatCompact(n: number): string {
  return compact.format(n);
}

export function formatNumber(n: number): string {
  return full.format(n);
}

/** Parameter counts the way model pages show them: 7.24B, 135M, 22.7M. */
export function formatParams(n: number | null): string | null {
  if (n == null || !Number.isFinite(n) || n <= 0) return null;
  const units: Array<[number, string]> = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, unit] of units) {
    if (n >= size) {
      const v = n / size;
      return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)}${unit}`.replace(/\.0+([A-Z])$/, "$1");
    }
  }
  return String(n);
}

const DAY = 86_400_000;

/** "3 days ago", relative to `now`; only for live data (see rowDateText). */
export function formatAge(iso: string | null, now: number = Date.now()): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  const days = Math.floor((now - t) / DAY);
  if (days < 1) return "today";
  if (days < 2) return "yesterday";
  if (days < 31) return `${days} days ago`;
  const months = Math.floor(days / 30.44);
  if (months < 12) return months === 1 ? "1 month ago" : `${months} months ago`;
  const years = Math.floor(days / 365.25);
  return years === 1 ? "1 year ago" : `${years} years ago`;
}

/**
 * A listing row's date. From a snapshot it is absolute ("Created 2024-06-12"): an age counted from
 * the snapshot day would read as counted from today. Live rows (no snapshot) say how long ago.
 */
export function rowDateText(m: { lastModified: string | null; createdAt: string | null; statsAsOf: string | null }, now: number = Date.now(), sort?: string): string | null {
  // A list sorted by creation shows the date it is sorted by: update dates, in no order there,
  // made "Recently created" look unsorted.
  const created = sort === "created" && m.createdAt !== null;
  const iso = created ? m.createdAt : (m.lastModified ?? m.createdAt);
  const verb = !created && m.lastModified ? "Updated" : "Created";
  if (m.statsAsOf) {
    const date = formatDate(iso);
    return date ? `${verb} ${date}` : null;
  }
  const age = formatAge(iso, now);
  return age ? `${verb} ${age}` : null;
}

export function formatDate(iso: string | null): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  return new Date(t).toISOString().slice(0, 10);
}

/** A moment to the minute, in UTC and saying so ("2026-11-26 16:10 UTC"): a saved file's time, read anywhere. */
export function formatMinuteUtc(iso: string | null): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return null;
  return `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function formatBytes(n: number | null): string | null {
  if (n == null) return null;
  const units = ["B", "kB", "MB", "GB", "TB"];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}
