/**
 * How each non-chat task's answer (other than a label chart, which the page keeps as label-scores)
 * is drawn in a column: the task widget's own output component,
 * given the answer and the shared input it answers. One entry per task, so a task joins /compare
 * with its row in COMPARE_TASKS (input and request) and its row here (rendering).
 */
import type { ReactNode } from "react";
import type { OutputTask } from "#app/compare/compare-tasks.ts";
import { FeatureExtractionOutput } from "#app/demos/text/feature-extraction.tsx";
import { FillMaskOutput } from "#app/demos/text/fill-mask.tsx";
import { GeneratedTextOutput } from "#app/demos/text/text-generation.tsx";
import { QuestionAnsweringOutput } from "#app/demos/text/question-answering.tsx";
import { SentenceSimilarityOutput } from "#app/demos/text/sentence-similarity.tsx";
import { TextToTextOutput } from "#app/demos/text/text-to-text.tsx";
import { TableAnswerOutput } from "#app/demos/text/table-question-answering.tsx";
import { TokenClassificationOutput } from "#app/demos/text/token-classification.tsx";
import { TabularPredictionsOutput } from "#app/demos/tabular/tabular-widget.tsx";
import { ZeroShotOutput } from "#app/demos/text/zero-shot-classification.tsx";
import { AudioTracksOutput } from "#app/demos/audio/audio-to-audio.tsx";
import { TranscriptOutput } from "#app/demos/audio/automatic-speech-recognition.tsx";
import { TextToSpeechOutput } from "#app/demos/audio/text-to-speech.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { ImageSegmentationOutput } from "#app/demos/vision/image-segmentation.tsx";
import { ImageToImageOutput } from "#app/demos/vision/image-to-image.tsx";
import { ImageToTextOutput } from "#app/demos/vision/image-to-text.tsx";
import { ObjectDetectionOutput } from "#app/demos/vision/object-detection.tsx";
import { ScoredAnswersOutput } from "#app/demos/vision/scored-answers.tsx";
import { TextToImageOutput } from "#app/demos/vision/text-to-image.tsx";
import { TextToVideoOutput } from "#app/demos/vision/text-to-video.tsx";

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
  /** The JSON answer; null for a media one. */
  output: unknown;
  media: MediaAnswer | null;
  sent: SentInput;
  modelId: string;
}

export const COMPARE_OUTPUTS = {
  "text-completion": ({ output, sent }) => <GeneratedTextOutput output={output} prompt={sent.text} />,
  "zero-shot-classification": ({ output }) => <ZeroShotOutput output={output} />,
  "token-classification": ({ output, sent }) => <TokenClassificationOutput output={output} text={sent.text} />,
  "question-answering": ({ output, sent }) => <QuestionAnsweringOutput output={output} context={sent.context ?? ""} />,
  "fill-mask": ({ output }) => <FillMaskOutput output={output} />,
  summarization: ({ output }) => <TextToTextOutput output={output} task="summarization" />,
  translation: ({ output }) => <TextToTextOutput output={output} task="translation" />,
  "feature-extraction": ({ output }) => <FeatureExtractionOutput output={output} />,
  "sentence-similarity": ({ output, sent }) => <SentenceSimilarityOutput output={output} sentences={sent.sentences ?? []} />,
  "object-detection": ({ output, sent }) => <ObjectDetectionOutput output={output} image={sent.image ?? null} />,
  "image-segmentation": ({ output, sent }) => <ImageSegmentationOutput output={output} image={sent.image ?? null} />,
  "image-to-text": ({ output }) => <ImageToTextOutput output={output} />,
  "zero-shot-image-classification": ({ output }) => <ZeroShotOutput output={output} />,
  "visual-question-answering": ({ output }) => <ScoredAnswersOutput output={output} />,
  "document-question-answering": ({ output }) => <ScoredAnswersOutput output={output} />,
  "automatic-speech-recognition": ({ output }) => <TranscriptOutput output={output} />,
  "audio-to-audio": ({ output }) => <AudioTracksOutput output={output} />,
  "tabular-classification": ({ output, sent }) => <TabularPredictionsOutput output={output} rows={sent.table ?? []} kind="classification" />,
  "tabular-regression": ({ output, sent }) => <TabularPredictionsOutput output={output} rows={sent.table ?? []} kind="regression" />,
  "table-question-answering": ({ output, sent }) => <TableAnswerOutput output={output} rows={sent.table ?? []} />,
  // Media answers; a provider that answers these with JSON has it shown as JSON.
  "text-to-image": ({ output, media, sent }) => (media ? <TextToImageOutput {...media} prompt={sent.text} /> : <RawOutput value={output} />),
  "image-to-image": ({ output, media, sent }) => (media ? <ImageToImageOutput {...media} imageName={sent.fileName ?? "the image"} /> : <RawOutput value={output} />),
  "text-to-video": ({ output, media, sent }) => (media ? <TextToVideoOutput {...media} prompt={sent.text} /> : <RawOutput value={output} />),
  "text-to-speech": ({ output, media, sent }) => (media ? <TextToSpeechOutput {...media} text={sent.text} /> : <RawOutput value={output} />),
} as const satisfies Record<OutputTask, (p: OutputProps) => ReactNode>;

/** A saved or live answer for `task` (a session from elsewhere may name a task this page does not draw). */
export function CompareOutput({ task, ...props }: OutputProps & { task: string }) {
  const draw = Object.hasOwn(COMPARE_OUTPUTS, task) ? COMPARE_OUTPUTS[task as keyof typeof COMPARE_OUTPUTS] : null;
  return draw ? draw(props) : null;
}
