import { parentPort } from "node:worker_threads";
import { renderTemplate } from "#app/chat-template/engine/render.ts";
import type { RenderChatTemplateResult } from "#app/chat-template/render-types.ts";
import type { WorkerJob, WorkerMessage } from "#app/chat-template/sandbox-protocol.ts";

// The entry of the sandbox's worker threads (sandbox.server.ts starts them from this file; the
// server build emits it as a chunk of its own, see server/worker-entry-plugin.ts). It renders one
// job at a time and answers each with its result.

function failure(message: string, kind: "limit" | "runtime"): RenderChatTemplateResult {
  return { ok: false, error: { message, kind, line: null, column: null, excerpt: null } };
}

function run(job: WorkerJob): RenderChatTemplateResult {
  try {
    // No step cap: the sandbox's deadline stops a runaway template by terminating this thread.
    const result = renderTemplate({ ...job.input, maxSteps: Number.MAX_SAFE_INTEGER });
    if (result.ok && result.text.length > job.maxOutputChars) {
      return failure(`The rendered text is longer than ${job.maxOutputChars} characters`, "limit");
    }
    return result;
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error), "runtime");
  }
}

const port = parentPort;
if (!port) throw new Error("sandbox-worker.server.ts runs as a worker thread of the chat-template sandbox, not on its own");
port.on("message", (job: WorkerJob) => {
  port.postMessage({ id: job.id, result: run(job) } satisfies WorkerMessage);
});
port.postMessage({ ready: true } satisfies WorkerMessage);
