/**
 * Recording from the microphone with MediaRecorder: which container to ask for, and what to tell
 * the visitor when the browser cannot or may not record. Pure, apart from the feature checks.
 */

/** Containers the gateway's sniffer reads, in the order a browser is asked for them. */
const RECORDING_TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus", "audio/mp4"] as const;

/** The first recording type the browser supports, or "" to let it choose. */
export function recordingType(isSupported: (type: string) => boolean): string {
  return RECORDING_TYPES.find((t) => isSupported(t)) ?? "";
}

/** A recording's file name from its content type ("recording.webm"). */
export function recordingFileName(contentType: string): string {
  const mime = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const ext = mime === "audio/ogg" ? "ogg" : mime === "audio/mp4" ? "m4a" : mime === "audio/wav" ? "wav" : "webm";
  return `recording.${ext}`;
}

/** Why recording is not possible before asking, or null when it may be tried. */
export function recordingUnsupported(env: { secure: boolean; hasMediaDevices: boolean; hasMediaRecorder: boolean }): string | null {
  if (!env.secure) return "Recording needs a secure page (https or localhost). Upload a file instead.";
  if (!env.hasMediaDevices || !env.hasMediaRecorder) return "This browser cannot record audio here. Upload a file instead.";
  return null;
}

/** getUserMedia's and MediaRecorder's failures as a sentence a visitor can act on. */
export function microphoneErrorMessage(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  switch (name) {
    case "NotAllowedError":
    case "PermissionDeniedError":
    case "SecurityError":
      return "Microphone access was denied. Allow it for this site in the browser’s settings, or upload a file instead.";
    case "NotFoundError":
    case "DevicesNotFoundError":
    case "OverconstrainedError":
      return "No microphone was found. Connect one, or upload a file instead.";
    case "NotReadableError":
    case "TrackStartError":
    case "AbortError":
      return "The microphone could not be started (another application may be using it). Try again, or upload a file instead.";
    default:
      return `Recording failed${error instanceof Error && error.message ? `: ${error.message}` : ""}. Upload a file instead.`;
  }
}
