import { describe, expect, it } from "vitest";
import { chatParameterSpecs } from "#app/demos/chat/demo-info.server.ts";
import { CHAT_DEFAULT_MAX_TOKENS } from "#app/inference/cost-caps.server.ts";

describe("the chat demo's parameters", () => {
  it("default max_tokens to the length the gateway gives a chat call that sets none", () => {
    // The gateway cannot read the demo's spec (features stay apart), so the two are held equal here.
    expect(chatParameterSpecs().max_tokens.default).toBe(CHAT_DEFAULT_MAX_TOKENS);
  });
});
