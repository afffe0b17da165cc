import { useState } from "react";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { generatedText } from "#app/demos/text/output-shapes.ts";
import { exampleGeneratedText, exampleInputImageUrl } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The caption (the widget's and /compare's); anything else as JSON. */
export function ImageToTextOutput({ output }: { output: unknown }) {
  const text = generatedText(output, "generated_text");
  return text !== null ? (
    <p data-generated-text="" className="whitespace-pre-wrap break-words">
      {text}
    </p>
  ) : (
    <RawOutput value={output} />
  );
}

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (image ? { ok: true, inputs: null, file: image } : { ok: false, message: "Choose an image to describe." })}
      renderExample={(ex) => {
        const output = exampleGeneratedText(ex, "generated_text");
        return output ? <ImageToTextOutput output={output} /> : null;
      }}
      render={(r) => <ImageToTextOutput output={r.kind === "json" ? r.output : null} />}
    >
      <ImageInput label="Image" value={image} onChange={setImage} suggestedUrl={exampleInputImageUrl(props.info.example)} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <ImageToTextOutput output={output} />;
}
