import { useState } from "react";
import { exampleInputImageUrl } from "#app/demos/shared/example-answers.ts";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { MediaOutput } from "#app/demos/shared/media-output.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The transformed image (the widget's and /compare's); another type of answer named by its type. */
export function ImageToImageOutput({ blob, contentType, imageName }: { blob: Blob; contentType: string; imageName: string }) {
  return contentType.startsWith("image/") ? <MediaOutput blob={blob} contentType={contentType} kind="image" description={`Transformed ${imageName}`} /> : <RawOutput value={contentType} />;
}

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  const [prompt, setPrompt] = useState(props.info.inputs.text);
  const [sent, setSent] = useState<string>("");
  return (
    <WidgetFrame
      {...props}
      // The prompt is the spec's `prompt` parameter, given its own field beside the image.
      ownParameters={["prompt"]}
      build={() => (image ? { ok: true, inputs: null, file: image, ...(prompt.trim() ? { parameters: { prompt } } : {}) } : { ok: false, message: "Choose an image to transform." })}
      onRun={() => setSent(image?.name ?? "")}
      render={(r) =>
        r.kind === "media" ? <ImageToImageOutput blob={r.blob} contentType={r.contentType} imageName={sent} /> : <RawOutput value={r.kind === "json" ? r.output : r.text} />
      }
    >
      <ImageInput label="Image" value={image} onChange={setImage} suggestedUrl={exampleInputImageUrl(props.info.example)} />
      <TextInput label="Prompt (optional)" name="prompt" value={prompt} onChange={setPrompt} rows={2} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output); a provider answering with JSON has it shown as JSON. */
export function Output({ output, media, sent }: OutputProps) {
  return media ? <ImageToImageOutput {...media} imageName={sent.fileName ?? "the image"} /> : <RawOutput value={output} />;
}
