import { describe, expect, it } from "vitest";
import { configuredEndpoints, EndpointConfigError, endpointOrigins, endpointsForModel } from "#app/inference/endpoints.server.ts";

const env = (value: unknown) => ({ MODELYARD_ENDPOINTS: typeof value === "string" ? value : JSON.stringify(value) });

describe("MODELYARD_ENDPOINTS", () => {
  it("parses endpoints with plain and renamed models", () => {
    const e = env([{ name: "ollama", url: "http://127.0.0.1:11434/v1", models: ["a/b", { id: "c/d", served: "d:7b" }] }]);
    const [first] = configuredEndpoints(e);
    expect(first).toMatchObject({ name: "ollama", label: "ollama", url: "http://127.0.0.1:11434/v1", keyEnv: null });
    expect([...(first?.models ?? [])]).toEqual([["a/b", "a/b"], ["c/d", "d:7b"]]);
    expect(endpointsForModel(e, "c/d").map((x) => x.name)).toEqual(["ollama"]);
    expect(endpointsForModel(e, "x/y")).toEqual([]);
    expect([...endpointOrigins(e)]).toEqual(["http://127.0.0.1:11434"]);
  });

  it("is empty when unset", () => {
    expect(configuredEndpoints({})).toEqual([]);
  });

  it.each([
    ["not json", "{", /not valid JSON/],
    ["a bad URL scheme", [{ name: "a", url: "file:///etc/passwd", models: ["a/b"] }], /invalid at 0\.url/],
    ["a URL that does not parse", [{ name: "a", url: "not a url", models: ["a/b"] }], /invalid at 0\.url/],
    ["credentials in the URL", [{ name: "a", url: "http://u:p@host/v1", models: ["a/b"] }], /keyEnv, not in the URL/],
    ["a duplicate name", [{ name: "a", url: "http://h/v1", models: ["a/b"] }, { name: "a", url: "http://h/v1", models: ["a/b"] }], /names "a" twice/],
    ["a served name given as the catalogue id", [{ name: "a", url: "http://h/v1", models: ["llama3.1:8b"] }], /invalid at 0\.models\.0.*"served"/],
    ["an arbitrary keyEnv", [{ name: "a", url: "http://h/v1", models: ["a/b"], keyEnv: "AWS_SECRET_ACCESS_KEY" }], /MODELYARD_ENDPOINT_KEY_/],
  ])("rejects %s", (_label, value, message) => {
    expect(() => configuredEndpoints(env(value))).toThrow(EndpointConfigError);
    expect(() => configuredEndpoints(env(value))).toThrow(message);
  });
});
