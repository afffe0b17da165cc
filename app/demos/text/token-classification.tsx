import { useState } from "react";
import { HighlightedText } from "#app/demos/shared/highlighted-text.tsx";
import { percent } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { entitySpans } from "#app/demos/text/output-shapes.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The entities highlighted in the text sent (the widget's and /compare's). */
export function TokenClassificationOutput({ output, text }: { output: unknown; text: string }) {
  const spans = entitySpans(text, output);
  if (!spans) return <RawOutput value={output} />;
  if (spans.length === 0) return <p>No entities found.</p>;
  return (
    <div className="space-y-2">
      <HighlightedText text={text} spans={spans} />
      <table className="sr-only">
        <caption>Entities found</caption>
        <thead>
          <tr>
            <th scope="col">Entity</th>
            <th scope="col">Type</th>
            <th scope="col">Score</th>
          </tr>
        </thead>
        <tbody>
          {spans.map((s, i) => (
            <tr key={i}>
              <th scope="row">{s.word}</th>
              <td>{s.label}</td>
              <td>{percent(s.score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  // The text the answer's offsets refer to: the one sent, not what is in the box now.
  const [sent, setSent] = useState(text);
  return (
    <WidgetFrame
      {...props}
      build={() => (text.trim() ? { ok: true, inputs: text } : { ok: false, message: "Type some text to tag." })}
      onRun={() => setSent(text)}
      render={(r) => <TokenClassificationOutput output={r.kind === "json" ? r.output : null} text={sent} />}
    >
      <TextInput label="Text" name="inputs" value={text} onChange={setText} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <TokenClassificationOutput output={output} text={sent.text} />;
}
