import { sharedStateToJson, type SharedState } from "#app/chat-template/preview-state.ts";

/**
 * The `s` URL parameter: the state as JSON, compressed with raw DEFLATE and written as base64url,
 * so a pasted template fits in a link. The browser writes it with CompressionStream; the server
 * reads it with zlib (url-state.server.ts).
 */
export const STATE_PARAM = "s";

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function encodeSharedState(state: SharedState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(sharedStateToJson(state)));
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const compressed = new Uint8Array(await new Response(stream).arrayBuffer());
  return toBase64Url(compressed);
}
