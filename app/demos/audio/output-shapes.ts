/**
 * Audio task answers (as @huggingface/inference 3.13.1 returns them through the gateway) shaped
 * for the audio widgets; null when the answer is not in a shape they know.
 */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

export interface TranscriptChunk {
  text: string;
  start: number | null;
  end: number | null;
}

/** Speech recognition: {text, chunks?: [{text, timestamp: [start, end]}]}; the end may be null (still speaking). */
export function transcript(output: unknown): { text: string; chunks: TranscriptChunk[] } | null {
  const first: unknown = Array.isArray(output) && output.length === 1 ? output[0] : output;
  if (!isRecord(first) || typeof first["text"] !== "string") return null;
  const chunks = Array.isArray(first["chunks"])
    ? first["chunks"].flatMap((c): TranscriptChunk[] => {
        if (!isRecord(c) || typeof c["text"] !== "string") return [];
        const ts = Array.isArray(c["timestamp"]) ? c["timestamp"] : Array.isArray(c["timestamps"]) ? c["timestamps"] : [];
        return [{ text: c["text"], start: isNum(ts[0]) ? ts[0] : null, end: isNum(ts[1]) ? ts[1] : null }];
      })
    : [];
  return { text: first["text"], chunks };
}

/** "1:05.3" for a timestamp in seconds. */
export function formatTimestamp(seconds: number | null): string {
  if (seconds === null) return "…";
  const m = Math.floor(seconds / 60);
  const s = seconds - m * 60;
  return `${m}:${s.toFixed(1).padStart(4, "0")}`;
}

export interface AudioTrack {
  label: string;
  contentType: string;
  /** The track as a data: URL, which the page's media-src allows. */
  src: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Audio-to-audio: [{label, "content-type", blob (base64)}], one per track. */
export function audioTracks(output: unknown): AudioTrack[] | null {
  if (!Array.isArray(output) || output.length === 0) return null;
  const tracks = output.flatMap((t, i): AudioTrack[] => {
    if (!isRecord(t) || typeof t["blob"] !== "string" || !BASE64.test(t["blob"])) return [];
    const declared = typeof t["content-type"] === "string" ? t["content-type"].toLowerCase() : "";
    // Only an audio type goes into the data: URL; any other claim is played as WAV, never as what it says.
    const contentType = /^audio\/[a-z0-9.+-]+$/.test(declared) ? declared : "audio/wav";
    const label = typeof t["label"] === "string" && t["label"].trim() !== "" ? t["label"] : `Track ${i + 1}`;
    return [{ label, contentType, src: `data:${contentType};base64,${t["blob"]}` }];
  });
  return tracks.length === output.length ? tracks : null;
}
