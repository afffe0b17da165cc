import { useState } from "react";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { vectorSummary } from "#app/demos/text/output-shapes.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The vector's shape, length and first values (the widget's and /compare's). */
export function FeatureExtractionOutput({ output }: { output: unknown }) {
  const v = vectorSummary(output);
  if (!v) return <RawOutput value={output} />;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-vector="">
      <dt className="font-medium">Shape</dt>
      <dd className="font-mono" data-vector-shape="">
        [{v.shape.join(", ")}]
      </dd>
      {v.norm !== null ? (
        <>
          <dt className="font-medium">Length (L2)</dt>
          <dd className="font-mono">{v.norm.toFixed(4)}</dd>
        </>
      ) : null}
      <dt className="font-medium">First values</dt>
      <dd className="break-words font-mono text-xs" data-vector-preview="">
        {v.preview.map((x) => x.toFixed(4)).join(", ")}…
      </dd>
    </dl>
  );
}

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  return (
    <WidgetFrame
      {...props}
      build={() => (text.trim() ? { ok: true, inputs: text } : { ok: false, message: "Type some text to embed." })}
      render={(r) => <FeatureExtractionOutput output={r.kind === "json" ? r.output : null} />}
    >
      <TextInput label="Text" name="inputs" value={text} onChange={setText} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <FeatureExtractionOutput output={output} />;
}
