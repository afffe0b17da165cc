import { describe, expect, it } from "vitest";
import { sessionJsonSchema, sessionSchema } from "#app/compare/session-schema.ts";
import { loader as schemaRoute } from "#app/routes/schemas.session-v1.ts";

describe("/schemas/session-v1.json", () => {
  it("publishes the JSON Schema derived from the zod schema", async () => {
    const res = schemaRoute({ request: new Request("http://localhost:3000/schemas/session-v1.json") });
    expect(res.headers.get("content-type")).toBe("application/schema+json; charset=utf-8");
    const published = (await res.json()) as Record<string, unknown>;
    expect(published).toEqual(sessionJsonSchema("http://localhost:3000"));
    expect(published["$id"]).toBe("http://localhost:3000/schemas/session-v1.json");
    expect(published["additionalProperties"]).toBe(false);
    const props = published["properties"] as Record<string, { const?: unknown; maxItems?: number }>;
    expect(props["schemaVersion"]?.const).toBe(1);
    expect(props["columns"]?.maxItems).toBe(6);
    expect(Object.keys(props).sort()).toEqual(Object.keys(sessionSchema.shape).sort());
  });
});
