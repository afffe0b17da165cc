import { describe, expect, it } from "vitest";
import { GatewayError } from "#app/inference/errors.server.ts";
import { TASK_CALLS } from "#app/tasks/task-calls.server.ts";
import { TASK_NAMES } from "#app/tasks/task-records.ts";

/** The error a call throws before it reaches the library (no fetch is made: inputs are checked first), at once or as a rejection. */
async function refusal(run: () => Promise<unknown>): Promise<GatewayError["body"]> {
  const error: unknown = await Promise.resolve()
    .then(run)
    .then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error.body;
}

const raw = (task: string, inputs: unknown, messages?: unknown[]) => ({ task, inputs, messages });

describe("task calls", () => {
  it("has one library call per task record", () => {
    expect(Object.keys(TASK_CALLS).sort()).toEqual([...TASK_NAMES].sort());
  });

  it("refuses inputs the task function does not take, naming the field and the shape it takes", async () => {
    expect(await refusal(() => TASK_CALLS["question-answering"].run({}, raw("question-answering", "Where?"), {}))).toMatchObject({
      status: 400,
      code: "invalid_request",
      field: "inputs",
      message: "`inputs` is not what the question-answering task takes: {question, context}.",
    });
    expect(await refusal(() => TASK_CALLS["image-classification"].run({}, raw("image-classification", "data:image/png;base64,AAAA"), {}))).toMatchObject({ field: "inputs" });
    expect(await refusal(() => TASK_CALLS.conversational.run({}, raw("conversational", undefined, [{ content: "no role" }]), {}))).toMatchObject({ field: "messages" });
  });

  it("asks zero-shot tasks for the candidate labels the library requires", async () => {
    expect(await refusal(() => TASK_CALLS["zero-shot-classification"].run({}, raw("zero-shot-classification", "I love it"), {}))).toMatchObject({ status: 400, field: "parameters" });
    expect(await refusal(() => TASK_CALLS["zero-shot-classification"].run({ parameters: { candidate_labels: "a, b" } }, raw("zero-shot-classification", "I love it"), {}))).toMatchObject({ field: "parameters" });
  });
});
