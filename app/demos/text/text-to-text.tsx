/** Summarization and translation: text in, text out. */
import { useState } from "react";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { generatedText } from "#app/demos/text/output-shapes.ts";
import { exampleGeneratedText } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The summary or translation (the widget's and /compare's). */
export function TextToTextOutput({ output, task }: { output: unknown; task: "summarization" | "translation" }) {
  const out = generatedText(output, task === "translation" ? "translation_text" : "summary_text");
  return out !== null ? (
    <p className="whitespace-pre-wrap break-words" data-generated-text="">
      {out}
    </p>
  ) : (
    <RawOutput value={output} />
  );
}

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  return (
    <WidgetFrame
      {...props}
      build={() => (text.trim() ? { ok: true, inputs: text } : { ok: false, message: "Type some text first." })}
      renderExample={(ex) => {
        const task = props.info.task === "translation" ? "translation" : "summarization";
        const output = exampleGeneratedText(ex, task === "translation" ? "translation_text" : "summary_text");
        return output ? <TextToTextOutput output={output} task={task} /> : null;
      }}
      render={(r) => <TextToTextOutput output={r.kind === "json" ? r.output : null} task={props.info.task === "translation" ? "translation" : "summarization"} />}
    >
      <TextInput label={props.info.task === "translation" ? "Text to translate" : "Text to summarise"} name="inputs" value={text} onChange={setText} rows={props.info.task === "translation" ? 3 : 6} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, task }: OutputProps) {
  return <TextToTextOutput output={output} task={task === "translation" ? "translation" : "summarization"} />;
}
