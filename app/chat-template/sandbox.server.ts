import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { RenderChatTemplateResult, RenderErrorKind } from "#app/chat-template/render-types.ts";
import type { SandboxRenderInput, WorkerJob, WorkerMessage } from "#app/chat-template/sandbox-protocol.ts";
import { type WorkerStart, workerStart } from "#app/utils/worker-start.server.ts";

export interface ChatTemplateSandboxOptions {
  /**
   * Wall-clock limit for one render, counted from when it was asked for (time spent waiting for
   * a worker included), or, for a render asked for while no worker has started yet, from when the
   * first one is ready. A running render past it has its worker terminated and replaced; a render
   * still waiting at that point is answered as a timeout without running.
   */
  timeoutMs?: number;
  /** Worker threads, 1 to 4. */
  poolSize?: number;
  /** UTF-8 bytes of the template. */
  maxTemplateBytes?: number;
  /** UTF-8 bytes of messages + tools + documents + extraContext as JSON. */
  maxInputBytes?: number;
  /** Characters of rendered text. */
  maxOutputChars?: number;
  /** Renders waiting for a worker, all clients together; beyond it the sandbox answers "busy" at once. */
  maxQueue?: number;
  /** Renders one client may have in progress (running or waiting); beyond it that client gets "busy". */
  maxPerClient?: number;
  /** V8 old-generation heap per worker; a template that allocates past it kills only its worker. */
  workerHeapMb?: number;
}

export interface SandboxRenderOptions {
  /**
   * Who asked (the socket address), for the per-client cap and fair turns. Absent for the server's
   * own renders (import validation), which share one lane that has no per-client cap.
   */
  client?: string;
}

/**
 * Two workers even on one core: a pool of one cannot keep a worker free for other clients while
 * one client's template runs to its deadline, and two threads on one core still time-share.
 * More than four buys little for renders that take milliseconds and costs a heap each.
 */
export function defaultPoolSize(cores: number = availableParallelism()): number {
  return Math.min(4, Math.max(2, Math.floor(cores)));
}

export const CHAT_TEMPLATE_LIMITS = {
  timeoutMs: 1000,
  poolSize: defaultPoolSize(),
  maxTemplateBytes: 256 * 1024,
  maxInputBytes: 1024 * 1024,
  maxOutputChars: 2 * 1024 * 1024,
  maxQueue: 64,
  maxPerClient: 4,
  workerHeapMb: 128,
} as const satisfies Required<ChatTemplateSandboxOptions>;

/**
 * How long a render asked for before any worker is ready waits for one to start. Starting one is
 * not the template's time: on a loaded machine the first render after a start took longer than
 * the one-second limit before it had run at all, and the page showed a timeout.
 */
const START_WAIT_MS = 30_000;

interface Job {
  id: number;
  /** Asked for while no worker was ready: its limit runs from when one is. */
  awaitingStart: boolean;
  input: SandboxRenderInput;
  lane: Lane;
  /** performance.now() past which the job is answered as a timeout, waiting or running. */
  deadline: number;
  enqueuedAt: number;
  timer: ReturnType<typeof setTimeout> | null;
  resolve: (result: RenderChatTemplateResult) => void;
}

/** One client's renders: those waiting (in order) and how many of its renders hold a worker. */
interface Lane {
  key: string;
  capped: boolean;
  queue: Job[];
  running: number;
  /** Waiting plus running. */
  admitted: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
}

// Client keys carry a prefix, so no socket address can name the internal lane.
const INTERNAL_LANE = "internal";

// The server build rewrites this URL to the worker's emitted JavaScript chunk
// (server/worker-entry-plugin.ts); from the sources (vitest, tsx, the dev server) it names the
// TypeScript file itself.
const WORKER_ENTRY = new URL("./sandbox-worker.server.ts", import.meta.url);

function limitError(message: string, kind: RenderErrorKind = "limit"): RenderChatTemplateResult {
  return { ok: false, error: { message, kind, line: null, column: null, excerpt: null } };
}

function busyError(message: string, retryAfterSeconds: number): RenderChatTemplateResult {
  return { ok: false, error: { message, kind: "busy", line: null, column: null, excerpt: null, retryAfterSeconds } };
}

function isMessage(value: unknown): value is WorkerMessage {
  return typeof value === "object" && value !== null && ("ready" in value || ("id" in value && "result" in value));
}

/**
 * Renders untrusted chat templates off the main thread with hard limits: a pool of worker
 * threads, a deadline per render enforced by terminating the worker (and starting a fresh one),
 * a heap cap per worker, and size caps on template, inputs and output.
 *
 * Fairness (docs/decisions/0012-fair-chat-template-sandbox.md): each client has its own queue and
 * free workers take turns across clients rather than serving the oldest render first; a client
 * may hold at most poolSize - 1 workers, so one client's slow templates always leave a worker for
 * everyone else; and a client with maxPerClient renders in progress, or a full queue, is told
 * "busy" with a retry time instead of waiting.
 */
export class ChatTemplateSandbox {
  readonly options: Required<ChatTemplateSandboxOptions>;
  /** Workers one client may hold at once. */
  readonly maxRunningPerClient: number;
  private readonly slots: Slot[] = [];
  /** Lanes with work, in turn order: the lane served last moves to the end. */
  private readonly lanes = new Map<string, Lane>();
  private queued = 0;
  private readonly workerStart: WorkerStart | null = null;
  private nextId = 1;
  private closed = false;
  /** Set when a worker dies before it is ready: respawning would only loop, so renders fail fast. */
  private bootError: string | null = null;
  /** Workers replaced after a timeout or crash; exposed for tests and metrics. */
  restarts = 0;

  constructor(options: ChatTemplateSandboxOptions = {}) {
    this.options = { ...CHAT_TEMPLATE_LIMITS, ...options };
    const size = Math.max(1, Math.min(4, Math.floor(this.options.poolSize)));
    this.maxRunningPerClient = Math.max(1, size - 1);
    try {
      this.workerStart = workerStart(WORKER_ENTRY);
    } catch (error) {
      this.bootError = error instanceof Error ? error.message : String(error);
      return;
    }
    for (let i = 0; i < size; i++) this.slots.push(this.spawn(this.workerStart));
  }

  render(input: SandboxRenderInput, options: SandboxRenderOptions = {}): Promise<RenderChatTemplateResult> {
    if (this.closed) return Promise.resolve(limitError("The chat-template renderer is shut down", "unavailable"));
    if (this.bootError) return Promise.resolve(limitError(`The chat-template renderer cannot start: ${this.bootError}`, "unavailable"));
    const { maxTemplateBytes, maxInputBytes, maxQueue, maxPerClient, timeoutMs } = this.options;
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
    const key = options.client === undefined ? INTERNAL_LANE : `client:${options.client}`;
    const existing = this.lanes.get(key);
    if (existing?.capped && existing.admitted >= maxPerClient) {
      return Promise.resolve(
        busyError(
          `You already have ${maxPerClient} chat-template renders in progress, the limit per client; wait for one to finish before sending another`,
          this.retryAfter(existing),
        ),
      );
    }
    if (this.queued >= maxQueue) {
      return Promise.resolve(
        busyError(`The chat-template renderer is busy (${maxQueue} renders waiting); try again shortly`, this.retryAfter(null)),
      );
    }
    const lane = existing ?? { key, capped: options.client !== undefined, queue: [], running: 0, admitted: 0 };
    if (!existing) this.lanes.set(key, lane);
    return new Promise((resolve) => {
      const now = performance.now();
      const awaitingStart = !this.slots.some((slot) => slot.ready);
      const limit = awaitingStart ? START_WAIT_MS : timeoutMs;
      const job: Job = { id: this.nextId++, awaitingStart, input, lane, deadline: now + limit, enqueuedAt: now, timer: null, resolve };
      job.timer = setTimeout(() => this.expire(job), limit);
      lane.queue.push(job);
      lane.admitted++;
      this.queued++;
      this.dispatch();
    });
  }

  /** Terminates the workers; pending renders resolve with an error. */
  async close(): Promise<void> {
    this.closed = true;
    this.failQueued(limitError("The chat-template renderer is shut down", "unavailable"));
    await Promise.all(
      this.slots.map(async (slot) => {
        this.finish(slot, limitError("The chat-template renderer is shut down", "unavailable"));
        await slot.worker.terminate();
      }),
    );
  }

  /**
   * Whole seconds until a render in progress must have ended (every render ends by its deadline),
   * which frees a place for this client, or in the queue when `lane` is null.
   */
  private retryAfter(lane: Lane | null): number {
    let earliest = Infinity;
    if (lane) {
      for (const job of lane.queue) earliest = Math.min(earliest, job.deadline);
      for (const slot of this.slots) if (slot.job?.lane === lane) earliest = Math.min(earliest, slot.job.deadline);
    } else {
      for (const other of this.lanes.values()) for (const job of other.queue) earliest = Math.min(earliest, job.deadline);
    }
    const wait = Number.isFinite(earliest) ? earliest - performance.now() : this.options.timeoutMs;
    return Math.max(1, Math.ceil(wait / 1000));
  }

  private spawn(start: WorkerStart): Slot {
    const worker = new Worker(start.script, {
      eval: start.eval,
      resourceLimits: { maxOldGenerationSizeMb: this.options.workerHeapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    // An idle pool must not keep the process (or a test run) alive.
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null };
    worker.on("message", (message: unknown) => {
      if (!isMessage(message)) return;
      if ("ready" in message) {
        slot.ready = true;
        this.startLimits();
        this.dispatch();
        return;
      }
      if (slot.job && slot.job.id === message.id) {
        this.finish(slot, message.result);
        this.dispatch();
      }
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (!slot.ready) {
        this.bootError = error.message;
        this.failQueued(limitError(`The chat-template renderer cannot start: ${error.message}`, "unavailable"));
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
      this.dispatch();
    });
    worker.on("exit", () => {
      if (!this.closed && this.slots.includes(slot)) {
        this.replace(slot, limitError("The renderer stopped unexpectedly"));
        this.dispatch();
      }
    });
    return slot;
  }

  /** A worker is ready: the renders that waited for one to start get their own limit from now. */
  private startLimits(): void {
    const now = performance.now();
    for (const lane of this.lanes.values()) {
      for (const job of lane.queue) {
        if (!job.awaitingStart) continue;
        job.awaitingStart = false;
        if (job.timer) clearTimeout(job.timer);
        job.deadline = now + this.options.timeoutMs;
        job.timer = setTimeout(() => this.expire(job), this.options.timeoutMs);
      }
    }
  }

  /** A job's deadline passed: stop it if it runs, answer it unrun if it still waits. */
  private expire(job: Job): void {
    job.timer = null;
    const slot = this.slots.find((candidate) => candidate.job === job);
    if (slot) {
      this.replace(slot, limitError(`Rendering took longer than ${this.options.timeoutMs}ms and was stopped`, "timeout"));
    } else {
      const index = job.lane.queue.indexOf(job);
      if (index < 0) return;
      job.lane.queue.splice(index, 1);
      this.queued--;
      this.release(job.lane);
      if (job.awaitingStart) {
        job.resolve(limitError(`The chat-template renderer did not start within ${START_WAIT_MS / 1000} s, so the template did not run; try again shortly`, "unavailable"));
        return;
      }
      job.resolve(
        limitError(
          `Waited ${Math.round(performance.now() - job.enqueuedAt)}ms for a free renderer, past the ${this.options.timeoutMs}ms limit, so the template did not run; try again shortly`,
          "timeout",
        ),
      );
    }
    this.dispatch();
  }

  /** One of the lane's renders has ended; forget the lane once it has none. */
  private release(lane: Lane): void {
    lane.admitted--;
    if (lane.admitted === 0 && this.lanes.get(lane.key) === lane) this.lanes.delete(lane.key);
  }

  private failQueued(result: RenderChatTemplateResult): void {
    for (const lane of [...this.lanes.values()]) {
      for (const job of lane.queue.splice(0)) {
        if (job.timer) clearTimeout(job.timer);
        this.queued--;
        this.release(lane);
        job.resolve(result);
      }
    }
  }

  private finish(slot: Slot, result: RenderChatTemplateResult): void {
    const job = slot.job;
    slot.job = null;
    if (!job) return;
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
    job.lane.running--;
    this.release(job.lane);
    job.resolve(result);
  }

  private replace(slot: Slot, result: RenderChatTemplateResult): void {
    const index = this.slots.indexOf(slot);
    this.finish(slot, result);
    if (index < 0) return;
    this.restarts++;
    // Drop the slot first so its exit event does not trigger a second replacement.
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (!this.closed && this.workerStart) this.slots.splice(index, 0, this.spawn(this.workerStart));
  }

  /** The next lane in turn with a waiting render and a worker to spare; it moves to the back. */
  private nextLane(): Lane | null {
    for (const lane of this.lanes.values()) {
      if (lane.queue.length === 0 || lane.running >= this.maxRunningPerClient) continue;
      this.lanes.delete(lane.key);
      this.lanes.set(lane.key, lane);
      return lane;
    }
    return null;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queued === 0) return;
      if (!slot.ready || slot.job) continue;
      const lane = this.nextLane();
      if (!lane) return;
      const job = lane.queue.shift();
      if (!job) return;
      this.queued--;
      lane.running++;
      slot.job = job;
      try {
        slot.worker.postMessage({ id: job.id, input: job.input, maxOutputChars: this.options.maxOutputChars } satisfies WorkerJob);
      } catch (error) {
        // An input the structured clone cannot copy (a function, a symbol) is the caller's mistake, not the worker's.
        this.finish(slot, limitError(`The render input cannot be sent to the renderer: ${error instanceof Error ? error.message : String(error)}`, "runtime"));
      }
    }
  }
}

let shared: ChatTemplateSandbox | null = null;

/** The process-wide sandbox (created on first use) used by the render API and import validation. */
export function getChatTemplateSandbox(): ChatTemplateSandbox {
  shared ??= new ChatTemplateSandbox();
  return shared;
}
