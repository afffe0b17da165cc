/**
 * Images attached to a chat message, for image-text-to-text models: sent as OpenAI-style content
 * parts, the text first and each image as a base64 data: URL, which the providers' chat routes take
 * and the gateway's request schema allows (up to 8 MB of URL per image).
 */

/** The largest image file attached: its base64 data: URL (4/3 of it, plus the prefix) stays under the gateway's 8 MB. */
export const MAX_IMAGE_BYTES = 5_900_000;

/** Images per message; providers cap it too (a few take only one). */
export const MAX_IMAGES = 4;

export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

/** A message's content: the plain string when nothing is attached, content parts otherwise. */
export function messageContent(text: string, images: readonly string[]): string | ContentPart[] {
  if (images.length === 0) return text;
  return [...(text === "" ? [] : [{ type: "text" as const, text }]), ...images.map((url) => ({ type: "image_url" as const, image_url: { url } }))];
}

/** Whether a model's chat demo takes images: a vision-language (image-text-to-text) model. */
export function acceptsImages(pipelineTag: string | null): boolean {
  return pipelineTag === "image-text-to-text";
}
