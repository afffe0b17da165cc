/**
 * The task widget for a model, chosen by its task. Each widget is its own chunk, loaded only when
 * a page shows it, so the model page's initial JavaScript does not grow with the widgets.
 */
import { type ComponentType, lazy, type LazyExoticComponent, Suspense } from "react";
import type { WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import type { WidgetTask } from "#app/demos/widget-tasks.ts";

type Loaded = LazyExoticComponent<ComponentType<WidgetProps>>;
const load = (importer: () => Promise<{ Widget: ComponentType<WidgetProps> }>): Loaded => lazy(() => importer().then((m) => ({ default: m.Widget })));

const WIDGETS = {
  "text-classification": load(() => import("#app/demos/text/text-classification.tsx")),
  "zero-shot-classification": load(() => import("#app/demos/text/zero-shot-classification.tsx")),
  "token-classification": load(() => import("#app/demos/text/token-classification.tsx")),
  "fill-mask": load(() => import("#app/demos/text/fill-mask.tsx")),
  "question-answering": load(() => import("#app/demos/text/question-answering.tsx")),
  summarization: load(() => import("#app/demos/text/text-to-text.tsx")),
  translation: load(() => import("#app/demos/text/text-to-text.tsx")),
  "text-generation": load(() => import("#app/demos/text/text-generation.tsx")),
  "feature-extraction": load(() => import("#app/demos/text/feature-extraction.tsx")),
  "sentence-similarity": load(() => import("#app/demos/text/sentence-similarity.tsx")),
  "table-question-answering": load(() => import("#app/demos/text/table-question-answering.tsx")),
  "automatic-speech-recognition": load(() => import("#app/demos/audio/automatic-speech-recognition.tsx")),
  "audio-classification": load(() => import("#app/demos/audio/audio-classification.tsx")),
  "audio-to-audio": load(() => import("#app/demos/audio/audio-to-audio.tsx")),
  "text-to-speech": load(() => import("#app/demos/audio/text-to-speech.tsx")),
  "tabular-classification": load(() => import("#app/demos/tabular/tabular-classification.tsx")),
  "tabular-regression": load(() => import("#app/demos/tabular/tabular-regression.tsx")),
  "image-classification": load(() => import("#app/demos/vision/image-classification.tsx")),
  "zero-shot-image-classification": load(() => import("#app/demos/vision/zero-shot-image-classification.tsx")),
  "object-detection": load(() => import("#app/demos/vision/object-detection.tsx")),
  "image-segmentation": load(() => import("#app/demos/vision/image-segmentation.tsx")),
  "image-to-text": load(() => import("#app/demos/vision/image-to-text.tsx")),
  "visual-question-answering": load(() => import("#app/demos/vision/visual-question-answering.tsx")),
  "document-question-answering": load(() => import("#app/demos/vision/document-question-answering.tsx")),
  "text-to-image": load(() => import("#app/demos/vision/text-to-image.tsx")),
  "image-to-image": load(() => import("#app/demos/vision/image-to-image.tsx")),
  "text-to-video": load(() => import("#app/demos/vision/text-to-video.tsx")),
} satisfies Record<WidgetTask, Loaded>;

export function TaskWidget(props: WidgetProps) {
  const Widget = WIDGETS[props.info.task];
  return (
    <Suspense fallback={<p className="text-xs text-gray-700 dark:text-gray-300">Loading the widget…</p>}>
      <Widget {...props} />
    </Suspense>
  );
}
