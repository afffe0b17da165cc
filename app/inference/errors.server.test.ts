/**
 * The classifier on the library's exact messages, including the two rules 3.13.1's task functions
 * cannot reach (see gateway.test.ts and docs/decisions): they are still mapped, should a later
 * library version reach them.
 */
import { InferenceOutputError } from "@huggingface/inference";
import { describe, expect, it } from "vitest";
import { classifyError, DeadlineExceededError } from "#app/inference/errors.server.ts";
import { MissingCredentialError, refusalMessage, retryAfterSeconds } from "#app/inference/hub-fetch.server.ts";

const ctx = (status: number | null = null) => ({
  observation: { status, estimatedTimeSec: null, host: null, requests: 0, refusal: null, retryAfterSec: null, tooLarge: null },
  deadline: null,
  clientClosed: false,
  secrets: ["hf_secretSecret123"],
  provider: "together",
});

describe("classifyError", () => {
  it.each([
    ["Cannot use endpointUrl with a third-party provider.", 400],
    ["Provider openai requires a model ID to be passed directly.", 400],
    ["Provider openai is closed-source and does not support HF tokens.", 400],
    ['Models from openai must be prefixed by "openai/". Got "gpt-4o".', 400],
    ["Model x/y is not supported for task conversational and provider together. Supported task: text-to-image.", 400],
    ["Model x/y does not exist", 404],
    ["We have not been able to find inference provider information for model x/y.", 404],
    ["No default model defined for task conversational, please define the model explicitly.", 400],
    ["Failed to load tasks definitions from Hugging Face Hub.", 502],
    ["Server x/y does not seem to support chat completion. Error: undefined", 502],
    ["Server does not support event stream content type, it returned text/html", 502],
    ["Error forwarded from backend: overloaded", 502],
  ])("%s -> %i with the message unchanged", (message, status) => {
    const out = classifyError(new Error(message), ctx());
    expect(out.status).toBe(status);
    expect(out.message).toBe(message);
  });

  it("maps InferenceOutputError, deadlines, missing credentials and upstream statuses", () => {
    expect(classifyError(new InferenceOutputError("Expected ChatCompletionOutput"), ctx(200))).toMatchObject({ status: 502, code: "unexpected_output" });
    expect(classifyError(new Error("x"), { ...ctx(), deadline: new DeadlineExceededError(2500) })).toMatchObject({ status: 504, code: "deadline_exceeded", message: "The inference call did not finish within 2.5 s." });
    expect(classifyError(new MissingCredentialError("none"), ctx())).toMatchObject({ status: 401, code: "missing_token" });
    expect(classifyError(new Error('"Model x is currently loading"'), ctx(503))).toMatchObject({ status: 503, code: "model_loading", message: "Model x is currently loading" });
    expect(classifyError(new Error('{"message":"bad key","type":"invalid_request_error"}'), ctx(403))).toMatchObject({ status: 403, code: "token_rejected", message: "bad key" });
    expect(classifyError(new Error("Something new"), ctx(null))).toMatchObject({ status: 502, code: "inference_failed" });
    expect(classifyError("not even an error", ctx(null)).status).toBe(502);
  });

  it("a provider's 400, 413 or 422 refuses the request: 400 upstream_bad_request in the provider's words, whatever 3.13.1 made of it", () => {
    const refused = (status: number, refusal: string | null) => ({ ...ctx(status), observation: { ...ctx(status).observation, refusal } });
    expect(classifyError(new Error("Server x/y does not seem to support chat completion. Error: [object Object]"), refused(400, "context too long"))).toEqual({
      status: 400,
      code: "upstream_bad_request",
      message: "together refused the request (400): context too long",
      upstreamStatus: 400,
      hint: expect.stringMatching(/refused the request as sent/) as unknown,
      field: null,
    });
    expect(classifyError(new Error("Server response contains error: 413"), refused(413, null))).toMatchObject({ status: 400, upstreamStatus: 413, message: "together refused the request (413 Payload Too Large) without saying why." });
    expect(classifyError(new Error('{"message":"temperature out of range"}'), refused(422, null))).toMatchObject({ status: 400, message: "together refused the request (422): temperature out of range" });
    // A refusal of the model itself (a stale mapping) is the provider's, so /v1 may try the next one.
    expect(classifyError(new Error("Server response contains error: 400"), refused(400, "Model meta-llama/x does not exist"))).toMatchObject({ status: 502, code: "upstream_error", upstreamStatus: 400 });
    expect(classifyError(new Error("Server response contains error: 400"), refused(400, "unknown model 'x'"))).toMatchObject({ status: 502, code: "upstream_error" });
    // A long refusal is cut only after its secrets are removed: one spanning the cut leaves no prefix.
    const long = `${"x".repeat(1_990)}hf_secretSecret123 and more`;
    const cut = classifyError(new Error("Server response contains error: 422"), refused(422, long)).message;
    expect(cut).not.toContain("hf_secretS");
    expect(cut.length).toBeLessThanOrEqual(2_001);
    // A chat endpoint's 404 still says the server has no chat.
    expect(classifyError(new Error("Server x/y does not seem to support chat completion. Error: undefined"), refused(404, null))).toMatchObject({ status: 502, code: "chat_not_supported" });
  });

  it("an error answer whose words 3.13.1 lost keeps its status and says the provider's words, or that it gave none", () => {
    const said = (status: number, refusal: string | null, retryAfterSec: number | null = null) => ({ ...ctx(status), observation: { ...ctx(status).observation, refusal, retryAfterSec } });
    // A chat call's 500 is worded as if the server had no chat; it is the provider's own failure.
    expect(classifyError(new Error("Server x/y does not seem to support chat completion. Error: [object Object]"), said(500, "Internal boom"))).toEqual({
      status: 502,
      code: "upstream_error",
      message: "Internal boom",
      upstreamStatus: 500,
      hint: "The provider answered with an error (500).",
    });
    // A chat call's 404 that refuses the model is a stale mapping, which the next provider may not have.
    expect(classifyError(new Error("Server x/y does not seem to support chat completion. Error: [object Object]"), said(404, "The model `x` does not exist"))).toMatchObject({ status: 502, code: "upstream_error", message: "together refused the model (404): The model `x` does not exist" });
    // `{"message": …}` bodies (3.13.1: "[object Object]"), HTML pages and empty bodies.
    expect(classifyError(new Error("[object Object]"), said(429, "slow down", 7))).toMatchObject({ status: 429, code: "provider_rate_limited", message: "slow down", retryAfterSec: 7 });
    expect(classifyError(new Error("An error occurred while fetching the blob"), said(500, null))).toMatchObject({ status: 502, code: "upstream_error", message: "together answered 500 Internal Server Error without saying why." });
    expect(classifyError(new Error("Server response contains error: 500"), said(500, null))).toMatchObject({ status: 502, message: "together answered 500 Internal Server Error without saying why." });
    // An empty or broken JSON error body: 3.13.1's response.json() throws; the status is what went wrong.
    expect(classifyError(new SyntaxError("Unexpected end of JSON input"), said(401, null))).toMatchObject({ status: 401, code: "token_rejected", message: "together answered 401 Unauthorized without saying why." });
    expect(classifyError(new SyntaxError("Unexpected end of JSON input"), said(429, null))).toMatchObject({ status: 429, code: "provider_rate_limited" });
    expect(classifyError(new SyntaxError("Unexpected end of JSON input"), said(200, null))).toMatchObject({ status: 502, code: "unexpected_output" });
  });

  it.each([
    ["1", 1],
    ["120", 120],
    ["", null],
    ["soon", null],
  ])("reads Retry-After %j as %j seconds", (value, seconds) => {
    expect(retryAfterSeconds(value)).toBe(seconds);
  });

  it("reads an HTTP-date Retry-After as the seconds until it", () => {
    expect(retryAfterSeconds("Wed, 01 Jan 2025 00:00:30 GMT", Date.parse("2025-01-01T00:00:00Z"))).toBe(30);
  });

  it.each([
    ['{"error":{"message":"too long","type":"invalid_request_error"}}', "too long"],
    ['{"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096"}', "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096"],
    ['{"detail":[{"loc":["body","prompt"],"msg":"Field required"},{"msg":"too big"}]}', "Field required; too big"],
    ["Payload Too Large\n", "Payload Too Large"],
    ["{}", null],
  ])("reads a provider's refusal from %s", (body, said) => {
    expect(refusalMessage(body)).toBe(said);
  });

  it("Black Forest Labs' polling failure: the refused poll's status, else an image never reported ready", () => {
    const error = new InferenceOutputError("Failed to fetch result from black forest labs API");
    expect(classifyError(error, ctx(500))).toMatchObject({ status: 502, code: "upstream_error", upstreamStatus: 500, message: error.message });
    expect(classifyError(error, ctx(429))).toMatchObject({ status: 429, code: "provider_rate_limited" });
    expect(classifyError(error, ctx(200))).toMatchObject({ status: 502, code: "unexpected_output", hint: expect.stringMatching(/did not report the image as ready after five polls/) as unknown });
  });

  it("scrubs secrets from every message", () => {
    const out = classifyError(new Error("Error forwarded from backend: token hf_secretSecret123 expired"), ctx());
    expect(out.message).toBe("Error forwarded from backend: token [redacted] expired");
  });
});
