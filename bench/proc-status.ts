import fs from "node:fs";

/** A process's memory from /proc/<pid>/status (Linux), in MB. */
export interface Rss {
  /** VmRSS */
  rss: number;
  /** VmHWM: the highest RSS so far. */
  peak: number;
  anon: number;
  file: number;
}

export function rssOf(pid: number): Rss {
  const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024, anon: kb("RssAnon") / 1024, file: kb("RssFile") / 1024 };
}
