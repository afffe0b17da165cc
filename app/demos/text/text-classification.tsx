import { useState } from "react";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { labelScores } from "#app/demos/text/output-shapes.ts";
import { exampleLabelScores } from "#app/demos/shared/example-answers.ts";

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  return (
    <WidgetFrame
      {...props}
      build={() => (text.trim() ? { ok: true, inputs: text } : { ok: false, message: "Type some text to classify." })}
      renderExample={(ex) => {
        // Drawn as a run would be (highest first), under a caption that names the guide, not this model.
        const items = labelScores(exampleLabelScores(ex));
        return items ? <LabelScoreChart items={items} caption="Labels in the task guide’s example" /> : null;
      }}
      render={(r) => {
        const items = r.kind === "json" ? labelScores(r.output) : null;
        return items ? <LabelScoreChart items={items} caption={`Labels for the text, by ${props.info.modelId}`} /> : <RawOutput value={r.kind === "json" ? r.output : null} />;
      }}
    >
      <TextInput label="Text" name="inputs" value={text} onChange={setText} />
    </WidgetFrame>
  );
}
