import { useState } from "react";
import { splitLabels } from "#app/demos/shared/default-inputs.ts";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { ZeroShotOutput } from "#app/demos/text/zero-shot-classification.tsx";
import { exampleLabelScores, exampleInputImageUrl } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  const [labels, setLabels] = useState(props.info.inputs.candidateLabels.join(", "));
  return (
    <WidgetFrame
      {...props}
      ownParameters={["candidate_labels"]}
      build={() => {
        const candidates = splitLabels(labels);
        if (!image) return { ok: false, message: "Choose an image to classify." };
        if (candidates.length === 0) return { ok: false, message: "Give at least one candidate label." };
        return { ok: true, inputs: null, file: image, parameters: { candidate_labels: candidates } };
      }}
      renderExample={(ex) => {
        const output = exampleLabelScores(ex);
        return output ? <ZeroShotOutput output={output} /> : null;
      }}
      render={(r) => <ZeroShotOutput output={r.kind === "json" ? r.output : null} />}
    >
      <ImageInput label="Image" value={image} onChange={setImage} suggestedUrl={exampleInputImageUrl(props.info.example)} />
      <TextInput label="Candidate labels" name="candidate_labels" value={labels} onChange={setLabels} rows={1} hint="Comma-separated, e.g. cat, dog, bird" />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <ZeroShotOutput output={output} />;
}
