/** Audio classification: audio in (upload or microphone), a bar per label out. */
import { useState } from "react";
import { AudioInput } from "#app/demos/shared/audio-input.tsx";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { labelScores } from "#app/demos/text/output-shapes.ts";
import { exampleLabelScores } from "#app/demos/shared/example-answers.ts";

export function Widget(props: WidgetProps) {
  const [audio, setAudio] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (audio ? { ok: true, inputs: null, file: audio } : { ok: false, message: "Upload or record some audio first." })}
      renderExample={(ex) => {
        // Drawn as a run would be (highest first), under a caption that names the guide, not this model.
        const items = labelScores(exampleLabelScores(ex));
        return items ? <LabelScoreChart items={items} caption="Labels in the task guide’s example" /> : null;
      }}
      render={(r) => {
        const items = r.kind === "json" ? labelScores(r.output) : null;
        return items ? <LabelScoreChart items={items} caption={`Labels for the audio, by ${props.info.modelId}`} /> : <RawOutput value={r.kind === "json" ? r.output : null} />;
      }}
    >
      <AudioInput value={audio} onChange={setAudio} />
    </WidgetFrame>
  );
}
