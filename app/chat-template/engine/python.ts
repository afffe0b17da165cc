import type { RuntimeValue } from "#app/chat-template/engine/jinja-ast.ts";

// What transformers' Jinja environment does in Python and @huggingface/jinja does differently:
// the globals it defines (strftime_now, the sandbox's range) and Python's str() of values.

const PYTHON_MAX_RANGE = 100000;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function pad(value: number, width: number, fill = "0"): string {
  return String(value).padStart(width, fill);
}

/** Python's datetime.strftime in the C locale (what transformers' strftime_now calls). */
export function strftime(date: Date, format: string): string {
  return format.replace(/%(-?)([a-zA-Z%])/g, (whole: string, noPad: string, code: string) => {
    const p = (value: number, width: number) => (noPad ? String(value) : pad(value, width));
    const hours12 = date.getHours() % 12 === 0 ? 12 : date.getHours() % 12;
    const startOfYear = new Date(date.getFullYear(), 0, 1);
    const dayOfYear = Math.round((date.getTime() - startOfYear.getTime()) / 86_400_000) + 1;
    switch (code) {
      case "a":
        return (WEEKDAYS[date.getDay()] ?? "").slice(0, 3);
      case "A":
        return WEEKDAYS[date.getDay()] ?? "";
      case "b":
      case "h":
        return (MONTHS[date.getMonth()] ?? "").slice(0, 3);
      case "B":
        return MONTHS[date.getMonth()] ?? "";
      case "d":
        return p(date.getDate(), 2);
      case "e":
        return noPad ? String(date.getDate()) : pad(date.getDate(), 2, " ");
      case "m":
        return p(date.getMonth() + 1, 2);
      case "y":
        return p(date.getFullYear() % 100, 2);
      case "Y":
        return String(date.getFullYear());
      case "H":
        return p(date.getHours(), 2);
      case "I":
        return p(hours12, 2);
      case "M":
        return p(date.getMinutes(), 2);
      case "S":
        return p(date.getSeconds(), 2);
      case "p":
        return date.getHours() < 12 ? "AM" : "PM";
      case "j":
        return p(dayOfYear, 3);
      case "F":
        return `${date.getFullYear()}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
      case "T":
        return `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}`;
      case "%":
        return "%";
      default:
        return whole;
    }
  });
}

/** Jinja's sandbox replaces range() with safe_range, which refuses more than MAX_RANGE items. */
export function safeRange(...args: unknown[]): number[] {
  const numbers = args.map((value) => {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw new Error(`range() arguments must be integers, got ${typeof value}`);
    }
    return value;
  });
  // range(stop) or range(start, stop[, step]).
  const [first = 0, second = 0, step = 1] = numbers;
  const start = numbers.length === 1 ? 0 : first;
  const stop = numbers.length === 1 ? first : second;
  if (step === 0) throw new Error("range() arg 3 must not be zero");
  const count = step > 0 ? Math.ceil((stop - start) / step) : Math.ceil((start - stop) / -step);
  if (count > PYTHON_MAX_RANGE) {
    throw new Error(`Range too big. The sandbox blocks ranges larger than MAX_RANGE (${PYTHON_MAX_RANGE}).`);
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(start + i * step);
  return out;
}

function pyStringRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === "\\") out += "\\\\";
    else if (char === quote) out += `\\${quote}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return out + quote;
}

function pyNumber(value: number, isFloat: boolean): string {
  if (!isFloat) return String(value);
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  return String(value).replace(/e([+-])(\d)$/, "e$10$2");
}

/** repr() of a runtime value, as Python prints containers and their items; null when unknown. */
export function pyRepr(value: RuntimeValue, depth = 0): string | null {
  if (depth > 100) return null;
  const raw: unknown = value.value;
  switch (value.type) {
    case "StringValue":
      return pyStringRepr(String(raw));
    case "IntegerValue":
      return pyNumber(Number(raw), false);
    case "FloatValue":
      return pyNumber(Number(raw), true);
    case "BooleanValue":
      return raw ? "True" : "False";
    case "NullValue":
      return "None";
    case "ArrayValue":
    case "TupleValue": {
      if (!Array.isArray(raw)) return null;
      const items: string[] = [];
      for (const item of raw as RuntimeValue[]) {
        const repr = pyRepr(item, depth + 1);
        if (repr === null) return null;
        items.push(repr);
      }
      if (value.type === "TupleValue") return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
      return `[${items.join(", ")}]`;
    }
    case "ObjectValue": {
      if (!(raw instanceof Map)) return null;
      const items: string[] = [];
      for (const [key, item] of raw as Map<string, RuntimeValue>) {
        const repr = pyRepr(item, depth + 1);
        if (repr === null) return null;
        items.push(`${pyStringRepr(key)}: ${repr}`);
      }
      return `{${items.join(", ")}}`;
    }
    default:
      return null;
  }
}

/** What Python's str() prints for a `{{ }}` value where @huggingface/jinja prints JSON-ish text; null where they agree. */
export function pyStr(value: RuntimeValue): string | null {
  switch (value.type) {
    case "BooleanValue":
      return value.value ? "True" : "False";
    case "NullValue":
      return "None";
    case "FloatValue":
      return pyNumber(Number(value.value), true);
    case "ArrayValue":
    case "TupleValue":
    case "ObjectValue":
      return pyRepr(value);
    default:
      return null;
  }
}
