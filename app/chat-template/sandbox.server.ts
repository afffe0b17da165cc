import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { createChatTemplateEngine } from "#app/chat-template/engine.ts";
import type { RenderChatTemplateInput, RenderChatTemplateResult, RenderErrorKind } from "#app/chat-template/render.ts";

export interface ChatTemplateSandboxOptions {
  /** Wall-clock limit for one render, after which the worker is terminated and replaced. */
  timeoutMs?: number;
  /** Worker threads (1 or 2 on a small machine). */
  poolSize?: number;
  /** UTF-8 bytes of the template. */
  maxTemplateBytes?: number;
  /** UTF-8 bytes of messages + tools + documents + extraContext as JSON. */
  maxInputBytes?: number;
  /** Characters of rendered text. */
  maxOutputChars?: number;
  /** Renders waiting for a worker; beyond it the sandbox answers "busy" at once. */
  maxQueue?: number;
  /** V8 old-generation heap per worker; a template that allocates past it kills only its worker. */
  workerHeapMb?: number;
}

export type SandboxRenderInput = Omit<RenderChatTemplateInput, "maxSteps">;

export const CHAT_TEMPLATE_LIMITS = {
  timeoutMs: 1000,
  poolSize: 1,
  maxTemplateBytes: 256 * 1024,
  maxInputBytes: 1024 * 1024,
  maxOutputChars: 2 * 1024 * 1024,
  maxQueue: 64,
  workerHeapMb: 128,
} as const satisfies Required<ChatTemplateSandboxOptions>;

interface Job {
  id: number;
  input: SandboxRenderInput;
  resolve: (result: RenderChatTemplateResult) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: ReturnType<typeof setTimeout> | null;
}

interface WorkerReply {
  id: number;
  result: RenderChatTemplateResult;
}

// The worker receives the engine as source text (see createChatTemplateEngine) and loads
// @huggingface/jinja by absolute path, so it needs no file of its own in the SSR bundle.
// esbuild (tsx, vitest) may wrap functions in its keepNames helper \`__name\`; define it here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });
const jinja = require(workerData.jinjaPath);
const engine = (${createChatTemplateEngine.toString()})(jinja);
parentPort.on("message", (job) => {
  let result;
  try {
    result = engine.render(Object.assign({}, job.input, { maxSteps: Number.MAX_SAFE_INTEGER }));
    if (result.ok && result.text.length > job.maxOutputChars) {
      result = { ok: false, error: { message: "The rendered text is longer than " + job.maxOutputChars + " characters", kind: "limit", line: null, column: null, excerpt: null } };
    }
  } catch (error) {
    result = { ok: false, error: { message: String((error && error.message) || error), kind: "runtime", line: null, column: null, excerpt: null } };
  }
  parentPort.postMessage({ id: job.id, result });
});
parentPort.postMessage({ ready: true });
`;

function limitError(message: string, kind: RenderErrorKind = "limit"): RenderChatTemplateResult {
  return { ok: false, error: { message, kind, line: null, column: null, excerpt: null } };
}

function isReply(value: unknown): value is WorkerReply {
  return typeof value === "object" && value !== null && "id" in value && "result" in value;
}

/**
 * Renders untrusted chat templates off the main thread with hard limits: a pool of worker
 * threads, a per-render time limit enforced by terminating the worker (and starting a fresh
 * one), a heap cap per worker, and size caps on template, inputs and output.
 */
export class ChatTemplateSandbox {
  readonly options: Required<ChatTemplateSandboxOptions>;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly jinjaPath: string;
  private nextId = 1;
  private closed = false;
  /** Set when a worker dies before it is ready: respawning would only loop, so renders fail fast. */
  private bootError: string | null = null;
  /** Workers replaced after a timeout or crash; exposed for tests and metrics. */
  restarts = 0;

  constructor(options: ChatTemplateSandboxOptions = {}) {
    this.options = { ...CHAT_TEMPLATE_LIMITS, ...options };
    this.jinjaPath = createRequire(import.meta.url).resolve("@huggingface/jinja");
    const size = Math.max(1, Math.min(4, Math.floor(this.options.poolSize)));
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  render(input: SandboxRenderInput): Promise<RenderChatTemplateResult> {
    if (this.closed) return Promise.resolve(limitError("The chat-template renderer is shut down", "unavailable"));
    if (this.bootError) return Promise.resolve(limitError(`The chat-template renderer cannot start: ${this.bootError}`, "unavailable"));
    const { maxTemplateBytes, maxInputBytes } = this.options;
    if (Buffer.byteLength(input.template, "utf8") > maxTemplateBytes) {
      return Promise.resolve(limitError(`The template is larger than ${maxTemplateBytes} bytes`));
    }
    let inputJson: string;
    try {
      inputJson = JSON.stringify([input.messages, input.tools ?? null, input.documents ?? null, input.extraContext ?? null]);
    } catch {
      return Promise.resolve(limitError("The messages, tools or context cannot be serialised as JSON"));
    }
    if (Buffer.byteLength(inputJson, "utf8") > maxInputBytes) {
      return Promise.resolve(limitError(`The messages, tools and context are larger than ${maxInputBytes} bytes`));
    }
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.resolve(limitError("The chat-template renderer is busy; try again shortly", "unavailable"));
    }
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, input, resolve });
      this.dispatch();
    });
  }

  /** Terminates the workers; pending renders resolve with an error. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(limitError("The chat-template renderer is shut down", "unavailable"));
    await Promise.all(
      this.slots.map(async (slot) => {
        this.finish(slot, limitError("The chat-template renderer is shut down", "unavailable"));
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { jinjaPath: this.jinjaPath },
      resourceLimits: { maxOldGenerationSizeMb: this.options.workerHeapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    // An idle pool must not keep the process (or a test run) alive.
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    worker.on("message", (message: unknown) => {
      if (typeof message === "object" && message !== null && "ready" in message) {
        slot.ready = true;
        this.dispatch();
        return;
      }
      if (isReply(message) && slot.job && slot.job.id === message.id) {
        this.finish(slot, message.result);
        this.dispatch();
      }
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (!slot.ready) {
        this.bootError = error.message;
        for (const job of this.queue.splice(0)) job.resolve(limitError(`The chat-template renderer cannot start: ${error.message}`, "unavailable"));
        this.slots.splice(this.slots.indexOf(slot), 1);
        return;
      }
      const outOfMemory = error.code === "ERR_WORKER_OUT_OF_MEMORY";
      this.replace(
        slot,
        limitError(
          outOfMemory
            ? `Rendering used more than ${this.options.workerHeapMb} MB of memory and was stopped`
            : `The renderer failed: ${error.message}`,
        ),
      );
    });
    worker.on("exit", () => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, limitError("The renderer stopped unexpectedly"));
    });
    return slot;
  }

  private finish(slot: Slot, result: RenderChatTemplateResult): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const job = slot.job;
    slot.job = null;
    job?.resolve(result);
  }

  private replace(slot: Slot, result: RenderChatTemplateResult): void {
    const index = this.slots.indexOf(slot);
    this.finish(slot, result);
    if (index < 0) return;
    this.restarts++;
    // Drop the slot first so its exit event does not trigger a second replacement.
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (!this.closed) this.slots.splice(index, 0, this.spawn());
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      const { timeoutMs, maxOutputChars } = this.options;
      slot.timer = setTimeout(() => {
        this.replace(slot, limitError(`Rendering took longer than ${timeoutMs}ms and was stopped`, "timeout"));
        this.dispatch();
      }, timeoutMs);
      slot.worker.postMessage({ id: job.id, input: job.input, maxOutputChars });
    }
  }
}

let shared: ChatTemplateSandbox | null = null;

/** The process-wide sandbox (created on first use) used by the render API and import validation. */
export function getChatTemplateSandbox(): ChatTemplateSandbox {
  shared ??= new ChatTemplateSandbox();
  return shared;
}
