/**
 * What a task's output component is given in a /compare column: the answer and the shared input
 * it answers. Kept apart from the records so the demos' output modules and /compare share one
 * shape without importing each other.
 */

/** The shared input a column's answer refers to, as it was sent (and as a session keeps it). */
export interface SentInput {
  text: string;
  context?: string | undefined;
  sentences?: readonly string[] | undefined;
  /** The table sent, header row first. */
  table?: readonly (readonly string[])[] | undefined;
  /** The image sent (live only: a session keeps its name, not its bytes). */
  image?: Blob | undefined;
  /** The name of the file sent. */
  fileName?: string | null | undefined;
}

/** A generated image, clip or video as it came (live only: a session keeps its type and size). */
export interface MediaAnswer {
  blob: Blob;
  contentType: string;
}

export interface OutputProps {
  /** The task as the gateway names it (summarization and translation share a component). */
  task: string;
  /** The JSON answer; null for a media one. */
  output: unknown;
  media: MediaAnswer | null;
  sent: SentInput;
  modelId: string;
}
