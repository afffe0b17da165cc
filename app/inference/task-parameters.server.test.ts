import { describe, expect, it } from "vitest";
import { checkTaskParameters, describeTaskParameters, parameterNames } from "#app/inference/task-parameters.server.ts";
import { CHAT_PARAMETER_KEYS } from "#app/inference/run-task.server.ts";

const problem = (task: string | null, parameters: Record<string, unknown> | undefined) => checkTaskParameters(task, parameters);

describe("parameters checked against @huggingface/tasks' input specs", () => {
  it("reads a task's parameter names from its spec; chat takes the spec's top level minus model, messages and stream", () => {
    expect([...CHAT_PARAMETER_KEYS].sort()).toEqual(
      ["frequency_penalty", "logit_bias", "logprobs", "max_tokens", "n", "presence_penalty", "reasoning_effort", "response_format", "seed", "stop", "temperature", "tool_choice", "tool_prompt", "tools", "top_logprobs", "top_p"],
    );
    expect(parameterNames("text-generation")).toContain("max_new_tokens");
    expect(parameterNames("text-classification").sort()).toEqual(["function_to_apply", "top_k"]);
    // feature-extraction's spec has no `parameters` object: its options sit beside `inputs`.
    expect(parameterNames("feature-extraction")).toContain("normalize");
    expect(parameterNames("no-such-task")).toEqual([]);
  });

  it("accepts what the chat demo sends and what the spec allows", () => {
    expect(problem("conversational", { temperature: 1, max_tokens: 1024, top_p: 0.95 })).toBeNull();
    expect(problem("conversational", { temperature: 0, max_tokens: 0, stop: ["\n"], seed: 42, logprobs: true, top_logprobs: 5 })).toBeNull();
    expect(problem("conversational", { temperature: null, tool_choice: "auto", response_format: { type: "json_object" } })).toBeNull();
    expect(problem("text-generation", { max_new_tokens: 20, temperature: 0.5, top_p: 1, do_sample: true })).toBeNull();
    // Seeds as the providers' APIs take them: OpenAI's any int64 for chat, TGI's u64 (0 too) for text.
    expect(problem("conversational", { seed: -7 })).toBeNull();
    expect(problem("text-generation", { seed: 0 })).toBeNull();
    expect(problem("text-classification", { top_k: 2, function_to_apply: "softmax" })).toBeNull();
    expect(problem("zero-shot-classification", { candidate_labels: ["a", "b"], multi_label: false })).toBeNull();
    expect(problem("text-to-image", { width: 512, height: 512, guidance_scale: 7.5 })).toBeNull();
  });

  it.each([
    ["conversational", { temperature: "hot" }, "parameters.temperature", /must be a number, not a string/],
    // The chat spec gives temperature's range only in prose ("between 0 and 2").
    ["conversational", { temperature: -0.1 }, "parameters.temperature", /at least 0 and at most 2/],
    ["conversational", { temperature: 2.5 }, "parameters.temperature", /at most 2/],
    ["conversational", { max_tokens: -5 }, "parameters.max_tokens", /at least 0/],
    ["conversational", { max_tokens: 1.5 }, "parameters.max_tokens", /whole number/],
    ["conversational", { max_tokens: "10" }, "parameters.max_tokens", /whole number, not a string/],
    ["conversational", { max_tokens: 1e30 }, "parameters.max_tokens", /2147483647 \(int32\)/],
    ["conversational", { top_logprobs: 6 }, "parameters.top_logprobs", /at most 5/],
    ["conversational", { frequency_penalty: -3 }, "parameters.frequency_penalty", /at least -2/],
    ["conversational", { stop: "x" }, "parameters.stop", /must be an array/],
    ["conversational", { stop: ["a", 1] }, "parameters.stop.1", /must be a string/],
    ["conversational", { logprobs: "yes" }, "parameters.logprobs", /true or false/],
    ["conversational", { tool_choice: "sometimes" }, "parameters.tool_choice", /not any of the forms/],
    ["conversational", { endpointUrl: "http://evil" }, "parameters.endpointUrl", /not a chat-completion parameter/],
    ["text-generation", { temperature: 0 }, "parameters.temperature", /greater than 0/],
    ["text-generation", { top_p: 1.5 }, "parameters.top_p", /at most 1/],
    ["text-generation", { seed: -1 }, "parameters.seed", /at least 0/],
    ["conversational", { seed: 1.5 }, "parameters.seed", /whole number/],
    ["text-generation", { stop: ["a", "b", "c", "d", "e"] }, "parameters.stop", /at most 4 items/],
    ["text-generation", { max_tokens: 5 }, "parameters.max_tokens", /not a text-generation parameter/],
    ["text-classification", { function_to_apply: "tanh" }, "parameters.function_to_apply", /one of "sigmoid", "softmax", "none"/],
    ["text-classification", { top_k: null }, "parameters.top_k", /must not be null/],
    ["zero-shot-classification", { multi_label: true }, "parameters.candidate_labels", /is required/],
    ["text-to-speech", { generation_parameters: { temperature: "warm" } }, "parameters.generation_parameters.temperature", /must be a number/],
  ])("%s %j → %s", (task, parameters, field, message) => {
    const p = problem(task, parameters);
    expect(p?.field).toBe(field);
    expect(p?.message).toMatch(message);
    expect(p?.message.startsWith(field)).toBe(true);
  });

  it("leaves tasks without a spec, and calls without parameters, to the library", () => {
    expect(problem(null, { anything: 1 })).toBeNull();
    expect(problem("no-such-task", { anything: 1 })).toBeNull();
    expect(problem("conversational", undefined)).toBeNull();
  });
});

describe("describeTaskParameters", () => {
  it("gives each simple parameter of the spec as a form field, with its bounds and parsed examples", () => {
    const fields = describeTaskParameters("text-generation");
    expect(fields.find((f) => f.name === "temperature")).toMatchObject({ kind: "number", min: 0, default: null });
    expect(fields.find((f) => f.name === "do_sample")).toMatchObject({ kind: "boolean", default: false });
    expect(fields.find((f) => f.name === "stop")).toMatchObject({ kind: "string-list" });
    expect(fields.some((f) => f.name === "grammar")).toBe(false);
    expect(describeTaskParameters("translation").find((f) => f.name === "truncation")).toMatchObject({ kind: "enum", options: ["do_not_truncate", "longest_first", "only_first", "only_second"] });
    expect(describeTaskParameters("sentence-similarity")).toEqual([]);
    expect(describeTaskParameters("not-a-task")).toEqual([]);
  });
});
