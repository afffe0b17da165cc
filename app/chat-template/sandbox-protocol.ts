// The messages between the chat-template sandbox (sandbox.server.ts) and its worker threads
// (sandbox-worker.server.ts), in a module of their own so neither side imports the other (ADR 0042).
import type { RenderChatTemplateInput, RenderChatTemplateResult } from "#app/chat-template/render-types.ts";

/** A render as the sandbox takes it: no step cap, since the sandbox's deadline stops a runaway template. */
export type SandboxRenderInput = Omit<RenderChatTemplateInput, "maxSteps">;

/** A render the sandbox sends to a worker. */
export interface WorkerJob {
  id: number;
  input: SandboxRenderInput;
  maxOutputChars: number;
}

/** What a worker sends back: once `{ready: true}` when it has loaded, then one reply per job. */
export type WorkerMessage = { ready: true } | { id: number; result: RenderChatTemplateResult };
