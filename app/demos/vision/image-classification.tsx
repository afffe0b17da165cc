import { useState } from "react";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { labelScores } from "#app/demos/text/output-shapes.ts";
import { exampleLabelScores, exampleInputImageUrl } from "#app/demos/shared/example-answers.ts";

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (image ? { ok: true, inputs: null, file: image } : { ok: false, message: "Choose an image to classify." })}
      renderExample={(ex) => {
        // Drawn as a run would be (highest first), under a caption that names the guide, not this model.
        const items = labelScores(exampleLabelScores(ex));
        return items ? <LabelScoreChart items={items} caption="Labels in the task guide’s example" /> : null;
      }}
      render={(r) => {
        const items = r.kind === "json" ? labelScores(r.output) : null;
        return items ? <LabelScoreChart items={items} caption={`Labels for the image, by ${props.info.modelId}`} /> : <RawOutput value={r.kind === "json" ? r.output : null} />;
      }}
    >
      <ImageInput label="Image" value={image} onChange={setImage} suggestedUrl={exampleInputImageUrl(props.info.example)} />
    </WidgetFrame>
  );
}
