import { useState } from "react";
import { splitLabels } from "#app/demos/shared/default-inputs.ts";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { zeroShotScores } from "#app/demos/text/output-shapes.ts";
import { exampleLabelScores } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The candidate labels by score (the widget's and /compare's). */
export function ZeroShotOutput({ output }: { output: unknown }) {
  const items = zeroShotScores(output);
  return items ? <LabelScoreChart items={items} caption="Candidate labels by score" /> : <RawOutput value={output} />;
}

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  const [labels, setLabels] = useState(props.info.inputs.candidateLabels.join(", "));
  return (
    <WidgetFrame
      {...props}
      ownParameters={["candidate_labels"]}
      build={() => {
        const candidates = splitLabels(labels);
        if (!text.trim()) return { ok: false, message: "Type some text to classify." };
        if (candidates.length === 0) return { ok: false, message: "Give at least one candidate label." };
        return { ok: true, inputs: text, parameters: { candidate_labels: candidates } };
      }}
      renderExample={(ex) => {
        const output = exampleLabelScores(ex);
        return output ? <ZeroShotOutput output={output} /> : null;
      }}
      render={(r) => <ZeroShotOutput output={r.kind === "json" ? r.output : null} />}
    >
      <TextInput label="Text" name="inputs" value={text} onChange={setText} />
      <TextInput label="Candidate labels" name="candidate_labels" value={labels} onChange={setLabels} rows={1} hint="Comma-separated, e.g. cinema, art, music" />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <ZeroShotOutput output={output} />;
}
