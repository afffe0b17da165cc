/**
 * `parameters` of POST /api/inference checked against the task's input spec in
 * @huggingface/tasks (src/tasks/<task>/spec/input.json, which the package ships), so a wrong type
 * or an out-of-range value is a 400 naming the field instead of a provider's error or a silent
 * default. The checks are read from the spec; nothing here lists a task's parameters by hand.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PIPELINE_TYPES } from "@huggingface/tasks";

/** A JSON Schema node as the specs write them (draft-06, the subset they use). */
type SpecNode = { readonly [key: string]: unknown };

export interface ParameterProblem {
  /** Dotted path from the body's root, e.g. `parameters.temperature`. */
  field: string;
  message: string;
}

interface TaskSpec {
  /** The spec folder, which names the task in messages (conversational runs chat-completion). */
  name: string;
  /** The object `parameters` must match. */
  parameters: SpecNode;
  resolve(ref: string): SpecNode | null;
}

// Body fields the gateway takes outside `parameters`, for specs that put the parameters at the
// top level (chat-completion, feature-extraction): stream options stay with the gateway.
const NOT_PARAMETERS = new Set(["inputs", "messages", "model", "stream", "stream_options"]);

const isObject = (v: unknown): v is SpecNode => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Bounds a spec states that the API its providers speak does not have, dropped from a parameter.
 * The specs are generated from TGI, whose seed is a u64: OpenAI's chat seed is any int64 (its SDKs
 * send negative ones), and text generation's `exclusiveMinimum: 0` beside `minimum: 0` would
 * refuse seed 0, which a u64 takes. A provider that cannot take a value refuses it itself (400).
 */
const SPEC_AMENDMENTS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  "chat-completion": { seed: ["minimum"] },
  "text-generation": { seed: ["exclusiveMinimum"] },
};

/** A task's parameter node, with the bounds SPEC_AMENDMENTS drops for it removed. */
function amended(spec: TaskSpec, name: string, node: SpecNode): SpecNode {
  const drop = SPEC_AMENDMENTS[spec.name]?.[name];
  return drop ? Object.fromEntries(Object.entries(deref(node, spec)).filter(([k]) => !drop.includes(k))) : node;
}

let tasksDir: string | undefined;
function specPath(...parts: string[]): string {
  tasksDir ??= path.join(path.dirname(createRequire(import.meta.url).resolve("@huggingface/tasks/package.json")), "src", "tasks");
  return path.join(tasksDir, ...parts);
}

let commonDefinitions: SpecNode | undefined;
function readJson(file: string): SpecNode | null {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return isObject(value) ? value : null;
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
    throw error;
  }
}

/** The spec folder for a gateway task: chat runs the chat-completion spec; others share the task's name. */
function specNameFor(task: string): string | null {
  if (task === "conversational") return "chat-completion";
  return (PIPELINE_TYPES as readonly string[]).includes(task) ? task : null;
}

const specCache = new Map<string, TaskSpec | null>();

export function loadTaskSpec(task: string): TaskSpec | null {
  const name = specNameFor(task);
  if (name === null) return null;
  const cached = specCache.get(name);
  if (cached !== undefined) return cached;
  const input = readJson(specPath(name, "spec", "input.json"));
  let spec: TaskSpec | null = null;
  if (input) {
    const resolve = (ref: string): SpecNode | null => {
      const [file, pointer = ""] = ref.split("#");
      let root: SpecNode | null = input;
      if (file) {
        if (!file.endsWith("/common-definitions.json")) return null;
        commonDefinitions ??= readJson(specPath("common-definitions.json")) ?? {};
        root = commonDefinitions;
      }
      let node: unknown = root;
      for (const key of pointer.split("/").filter((k) => k !== "")) node = isObject(node) ? node[key] : undefined;
      return isObject(node) ? node : null;
    };
    const properties = isObject(input["properties"]) ? input["properties"] : {};
    let parameters: SpecNode;
    const declared = properties["parameters"];
    if (isObject(declared)) {
      parameters = declared;
    } else {
      const rest = Object.fromEntries(Object.entries(properties).filter(([k]) => !NOT_PARAMETERS.has(k)));
      parameters = { type: "object", properties: rest };
    }
    spec = { name, parameters, resolve };
  }
  specCache.set(name, spec);
  return spec;
}

/** The fields `parameters` may carry for a task, from its spec (empty when it has no spec). */
export function parameterNames(task: string): string[] {
  const spec = loadTaskSpec(task);
  if (!spec) return [];
  const node = deref(spec.parameters, spec);
  return isObject(node["properties"]) ? Object.keys(node["properties"]) : [];
}

function deref(node: SpecNode, spec: TaskSpec): SpecNode {
  let current = node;
  // Specs chain refs at most a couple deep; the bound guards a malformed one.
  for (let i = 0; i < 8 && typeof current["$ref"] === "string"; i++) {
    const target = spec.resolve(current["$ref"]);
    if (!target) break;
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/**
 * Numeric bounds. The TGI-generated specs give some only in prose ("What sampling temperature to
 * use, between 0 and 2"), so a description's "between A and B" fills a bound no keyword gives.
 */
function boundsOf(node: SpecNode): { min?: number; max?: number; exclusiveMin?: number; exclusiveMax?: number } {
  const exclusiveMin = num(node["exclusiveMinimum"]);
  const exclusiveMax = num(node["exclusiveMaximum"]);
  const description = typeof node["description"] === "string" ? node["description"] : "";
  const prose = /\bbetween (-?\d+(?:\.\d+)?) and (-?\d+(?:\.\d+)?)\b/.exec(description.split(/\.\s|\n/)[0] ?? "");
  return {
    min: num(node["minimum"]) ?? (exclusiveMin === undefined && prose ? Number(prose[1]) : undefined),
    max: num(node["maximum"]) ?? (exclusiveMax === undefined && prose ? Number(prose[2]) : undefined),
    exclusiveMin,
    exclusiveMax,
  };
}

const describe = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "string" ? "a string" : `${typeof v}`);

const INTEGER_FORMATS: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint64: [0, Number.MAX_SAFE_INTEGER],
};

function checkType(type: string, value: unknown): string | null {
  switch (type) {
    case "string":
      return typeof value === "string" ? null : `must be a string, not ${describe(value)}`;
    case "boolean":
      return typeof value === "boolean" ? null : `must be true or false, not ${describe(value)}`;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : `must be a number, not ${describe(value)}`;
    case "integer":
      return Number.isInteger(value) ? null : `must be a whole number, not ${typeof value === "number" ? String(value) : describe(value)}`;
    case "array":
      return Array.isArray(value) ? null : `must be an array, not ${describe(value)}`;
    case "object":
      return isObject(value) ? null : `must be an object, not ${describe(value)}`;
    default:
      return null;
  }
}

function checkNode(node0: SpecNode, value: unknown, field: string, spec: TaskSpec, topLevel: boolean): ParameterProblem | null {
  const node = deref(node0, spec);
  if (value === null) return node["nullable"] === true ? null : { field, message: `${field} must not be null` };
  if (Array.isArray(node["allOf"])) {
    for (const part of node["allOf"]) {
      if (!isObject(part)) continue;
      const problem = checkNode(part, value, field, spec, false);
      if (problem) return problem;
    }
  }
  if (Array.isArray(node["oneOf"]) || Array.isArray(node["anyOf"])) {
    const options = ((node["oneOf"] ?? node["anyOf"]) as unknown[]).filter(isObject);
    const problems = options.map((o) => checkNode(o, value, field, spec, false));
    if (options.length > 0 && problems.every((p) => p !== null)) {
      // One option's reason reads better than a list when every option failed the same way.
      const first = problems.find((p) => p !== null && p.field !== field) ?? problems[0]!;
      return first.field === field ? { field, message: `${field} is not any of the forms the ${spec.name} spec allows` } : first;
    }
  }
  if (typeof node["type"] === "string") {
    const wrong = checkType(node["type"], value);
    if (wrong) return { field, message: `${field} ${wrong}` };
  }
  // The spec's integer formats are the providers' wire types: a value past them overflows there.
  const range = typeof node["format"] === "string" ? INTEGER_FORMATS[node["format"]] : undefined;
  if (range && typeof value === "number" && (value < range[0] || value > range[1])) {
    return { field, message: `${field} must be between ${range[0]} and ${range[1]} (${String(node["format"])})` };
  }
  if (Array.isArray(node["enum"]) && !node["enum"].includes(value)) {
    return { field, message: `${field} must be one of ${node["enum"].map((v) => JSON.stringify(v)).join(", ")}` };
  }
  if ("const" in node && node["const"] !== value) return { field, message: `${field} must be ${JSON.stringify(node["const"])}` };
  if (typeof value === "number") {
    const b = boundsOf(node);
    if (b.min !== undefined && value < b.min) return { field, message: `${field} must be at least ${b.min}${b.max !== undefined ? ` and at most ${b.max}` : ""}` };
    if (b.exclusiveMin !== undefined && value <= b.exclusiveMin) return { field, message: `${field} must be greater than ${b.exclusiveMin}` };
    if (b.max !== undefined && value > b.max) return { field, message: `${field} must be at most ${b.max}` };
    if (b.exclusiveMax !== undefined && value >= b.exclusiveMax) return { field, message: `${field} must be less than ${b.exclusiveMax}` };
  }
  if (Array.isArray(value)) {
    const maxItems = num(node["maxItems"]);
    if (maxItems !== undefined && value.length > maxItems) return { field, message: `${field} may hold at most ${maxItems} items` };
    const minItems = num(node["minItems"]);
    if (minItems !== undefined && value.length < minItems) return { field, message: `${field} must hold at least ${minItems} items` };
    if (isObject(node["items"])) {
      for (const [i, item] of value.entries()) {
        const problem = checkNode(node["items"], item, `${field}.${i}`, spec, false);
        if (problem) return problem;
      }
    }
  }
  if (isObject(value)) {
    const properties = isObject(node["properties"]) ? node["properties"] : null;
    if (Array.isArray(node["required"])) {
      for (const key of node["required"]) {
        if (typeof key === "string" && value[key] === undefined) return { field: `${field}.${key}`, message: `${field}.${key} is required` };
      }
    }
    if (properties) {
      for (const [key, child] of Object.entries(value)) {
        const declared = properties[key];
        const childSpec = isObject(declared) && topLevel ? amended(spec, key, declared) : declared;
        if (isObject(childSpec)) {
          const problem = checkNode(childSpec, child, `${field}.${key}`, spec, false);
          if (problem) return problem;
        } else if (topLevel || node["additionalProperties"] === false) {
          return { field: `${field}.${key}`, message: `${field}.${key} is not a ${spec.name} parameter. Allowed: ${Object.keys(properties).join(", ") || "none"}.` };
        }
      }
    }
  }
  return null;
}

/**
 * The first way `parameters` breaks the task's spec, or null. Tasks without a spec in
 * @huggingface/tasks (or no task at all) are left to the library.
 */
export function checkTaskParameters(task: string | null, parameters: Record<string, unknown> | undefined): ParameterProblem | null {
  if (task === null || parameters === undefined) return null;
  const spec = loadTaskSpec(task);
  if (!spec) return null;
  return checkNode(spec.parameters, parameters, "parameters", spec, true);
}

/** One parameter a widget can offer as a form field, read from the task's spec. */
export interface ParameterField {
  name: string;
  kind: "number" | "integer" | "boolean" | "string" | "enum" | "string-list";
  description: string;
  min: number | null;
  max: number | null;
  options: string[];
  /** The spec's default (or example) when it gives one; the field starts empty otherwise. */
  default: number | boolean | string | null;
}

/**
 * The task's parameters as form fields, through the same spec reader and bounds as the checks
 * above. Nested objects (generate_parameters, grammar) and parameters the gateway sets itself are
 * left out: a widget offers what a person can type.
 */
export function describeTaskParameters(task: string): ParameterField[] {
  const spec = loadTaskSpec(task);
  if (!spec) return [];
  const node = deref(spec.parameters, spec);
  const properties = isObject(node["properties"]) ? node["properties"] : {};
  const fields: ParameterField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    if (!isObject(raw)) continue;
    const p = deref(amended(spec, name, raw), spec);
    const type = typeof p["type"] === "string" ? p["type"] : null;
    const items = isObject(p["items"]) ? deref(p["items"], spec) : null;
    const options = Array.isArray(p["enum"]) ? p["enum"].filter((v): v is string => typeof v === "string") : [];
    let kind: ParameterField["kind"] | null = null;
    if (options.length > 0) kind = "enum";
    else if (type === "number" || type === "integer" || type === "boolean" || type === "string") kind = type;
    else if (type === "array" && items?.["type"] === "string") kind = "string-list";
    if (kind === null) continue;
    const b = boundsOf(p);
    const range = typeof p["format"] === "string" ? INTEGER_FORMATS[p["format"]] : undefined;
    // TGI-generated specs write examples as JSON text ("null", "false", "0.5").
    let value: unknown = p["default"] ?? p["example"];
    if (typeof value === "string" && (kind !== "string" || value === "null")) {
      try {
        value = JSON.parse(value);
      } catch {
        value = null;
      }
    }
    const description = typeof p["description"] === "string" ? (p["description"].split("\n")[0] ?? "").trim() : "";
    fields.push({
      name,
      kind,
      description,
      min: b.min ?? b.exclusiveMin ?? (range ? Math.max(range[0], Number.MIN_SAFE_INTEGER) : null),
      max: b.max ?? b.exclusiveMax ?? (range ? Math.min(range[1], Number.MAX_SAFE_INTEGER) : null),
      options,
      default: typeof value === "number" || typeof value === "boolean" || typeof value === "string" ? value : null,
    });
  }
  return fields;
}
