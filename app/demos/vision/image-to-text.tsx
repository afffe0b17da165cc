import { useState } from "react";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { generatedText } from "#app/demos/text/output-shapes.ts";

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (image ? { ok: true, inputs: null, file: image } : { ok: false, message: "Choose an image to describe." })}
      render={(r) => {
        const text = r.kind === "json" ? generatedText(r.output, "generated_text") : null;
        return text !== null ? (
          <p data-generated-text="" className="whitespace-pre-wrap break-words">
            {text}
          </p>
        ) : (
          <RawOutput value={r.kind === "json" ? r.output : null} />
        );
      }}
    >
      <ImageInput label="Image" value={image} onChange={setImage} />
    </WidgetFrame>
  );
}
