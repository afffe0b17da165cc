/**
 * A strict parser of Prometheus' text exposition format (version 0.0.4), for tests: it throws,
 * naming the line, on anything a Prometheus server would refuse or misread: a malformed name,
 * label or value, a sample before its family's TYPE or outside its family, a family split in two,
 * a duplicate series, a histogram whose buckets are not cumulative or whose +Inf bucket is not its
 * count. What it returns is every family with its samples.
 */
export type MetricType = "counter" | "gauge" | "histogram" | "summary" | "untyped";

export interface Sample {
  /** The sample's own name: `x_bucket`, `x_sum`, `x_count` for a histogram `x`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help: string | null;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<MetricType>(["counter", "gauge", "histogram", "summary", "untyped"]);

class ParseError extends Error {}

function fail(lineNo: number, message: string): never {
  throw new ParseError(`line ${lineNo}: ${message}`);
}

// Prometheus reads values with Go's ParseFloat, which takes Inf and NaN in any case; prom-client
// writes a gauge with no sample yet (the event loop's lag right after a scrape) as "Nan".
function parseValue(text: string, lineNo: number): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) fail(lineNo, `not a number: ${JSON.stringify(text)}`);
  return Number(text);
}

/** The labels of `{a="x",b="y"}` starting at `text[start]` === "{"; returns them and the index past "}". */
function parseLabels(text: string, start: number, lineNo: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (text[i] === "}") return { labels, end: i + 1 };
    const eq = text.indexOf("=", i);
    if (eq === -1) fail(lineNo, "label without '='");
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) fail(lineNo, `bad label name ${JSON.stringify(name)}`);
    if (name in labels) fail(lineNo, `label ${name} given twice`);
    if (text[eq + 1] !== '"') fail(lineNo, `label ${name}'s value is not quoted`);
    let value = "";
    let j = eq + 2;
    for (;;) {
      const c = text[j];
      if (c === undefined) fail(lineNo, `label ${name}'s value is not closed`);
      if (c === '"') break;
      if (c === "\\") {
        const n = text[j + 1];
        if (n === "\\") value += "\\";
        else if (n === '"') value += '"';
        else if (n === "n") value += "\n";
        else fail(lineNo, `bad escape \\${n ?? ""} in label ${name}`);
        j += 2;
        continue;
      }
      value += c;
      j += 1;
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ",") i += 1;
    else if (text[i] !== "}") fail(lineNo, `expected ',' or '}' after label ${name}`);
  }
}

function familyOf(sampleName: string, families: Map<string, MetricFamily>): MetricFamily | undefined {
  const direct = families.get(sampleName);
  if (direct) return direct;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!sampleName.endsWith(suffix)) continue;
    const f = families.get(sampleName.slice(0, -suffix.length));
    if (f && (f.type === "histogram" || (f.type === "summary" && suffix !== "_bucket"))) return f;
  }
  return undefined;
}

function checkHistogram(f: MetricFamily): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count: number | null }>();
  const keyOf = (labels: Record<string, string>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([k]) => k !== "le")
        .sort(),
    );
  for (const s of f.samples) {
    const key = keyOf(s.labels);
    const entry = series.get(key) ?? { buckets: [], count: null };
    series.set(key, entry);
    if (s.name.endsWith("_bucket")) {
      const le = s.labels["le"];
      if (le === undefined) throw new ParseError(`${f.name}: a bucket without le`);
      entry.buckets.push([parseValue(le, 0), s.value]);
    } else if (s.name.endsWith("_count")) entry.count = s.value;
  }
  for (const [key, { buckets, count }] of series) {
    if (!buckets.length) throw new ParseError(`${f.name}${key}: no buckets`);
    for (let i = 1; i < buckets.length; i++) {
      const [le, n] = buckets[i]!;
      const [prevLe, prevN] = buckets[i - 1]!;
      if (!(le > prevLe)) throw new ParseError(`${f.name}${key}: bucket bounds not increasing`);
      if (n < prevN) throw new ParseError(`${f.name}${key}: bucket counts not cumulative`);
    }
    const last = buckets.at(-1)!;
    if (last[0] !== Infinity) throw new ParseError(`${f.name}${key}: no +Inf bucket`);
    if (count === null || count !== last[1]) throw new ParseError(`${f.name}${key}: _count ${count} is not the +Inf bucket's ${last[1]}`);
  }
}

export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const closed = new Set<string>();
  const seen = new Set<string>();
  let current: MetricFamily | null = null;
  const lines = text.split("\n");
  if (lines.at(-1) !== "") fail(lines.length, "the exposition must end with a line feed");
  lines.pop();
  const switchTo = (f: MetricFamily, lineNo: number) => {
    if (current === f) return;
    if (closed.has(f.name)) fail(lineNo, `family ${f.name} appears twice, apart`);
    if (current) closed.add(current.name);
    current = f;
  };
  lines.forEach((line, i) => {
    const lineNo = i + 1;
    if (line.trim() === "") return;
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) return; // A plain comment.
      const [, kind, name, rest] = m as unknown as [string, "HELP" | "TYPE", string, string];
      if (!METRIC_NAME.test(name)) fail(lineNo, `bad metric name ${JSON.stringify(name)}`);
      let f = families.get(name);
      if (!f) families.set(name, (f = { name, type: "untyped", help: null, samples: [] }));
      switchTo(f, lineNo);
      if (kind === "HELP") {
        if (f.help !== null) fail(lineNo, `second HELP for ${name}`);
        f.help = rest.replace(/\\(\\|n)/g, (_, c: string) => (c === "n" ? "\n" : "\\"));
      } else {
        if (!TYPES.has(rest as MetricType)) fail(lineNo, `unknown type ${JSON.stringify(rest)}`);
        if (f.samples.length) fail(lineNo, `TYPE of ${name} after its samples`);
        f.type = rest as MetricType;
      }
      return;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) fail(lineNo, "a sample without a value");
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) fail(lineNo, `bad metric name ${JSON.stringify(name)}`);
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (rest.startsWith("{")) {
      const parsed = parseLabels(line, nameEnd, lineNo);
      labels = parsed.labels;
      rest = line.slice(parsed.end);
    }
    const parts = rest.trim().split(/ +/);
    if (!rest.startsWith(" ") || parts.length < 1 || parts.length > 2) fail(lineNo, "expected ' value [timestamp]' after the name and labels");
    const value = parseValue(parts[0]!, lineNo);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) fail(lineNo, "bad timestamp");
    let f = familyOf(name, families);
    if (!f) families.set(name, (f = { name, type: "untyped", help: null, samples: [] }));
    switchTo(f, lineNo);
    if ((f.type === "counter" || f.type === "gauge") && name !== f.name) fail(lineNo, `${name} in ${f.type} ${f.name}`);
    if (f.type === "counter" && !(value >= 0)) fail(lineNo, `counter ${name} is ${value}`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) fail(lineNo, `series ${key} given twice`);
    seen.add(key);
    f.samples.push({ name, labels, value });
  });
  for (const f of families.values()) if (f.type === "histogram") checkHistogram(f);
  return families;
}

/** The one sample of `family` (its own name unless `sampleName` says) whose labels include `labels`; throws unless exactly one. */
export function sampleOf(families: Map<string, MetricFamily>, family: string, labels: Record<string, string> = {}, sampleName = family): number {
  const f = families.get(family);
  if (!f) throw new Error(`no metric family ${family}; there are ${[...families.keys()].join(", ")}`);
  const found = f.samples.filter((s) => s.name === sampleName && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${sampleName} with ${JSON.stringify(labels)}: ${JSON.stringify(f.samples.map((s) => s.labels).slice(0, 20))}`);
  return found[0]!.value;
}
