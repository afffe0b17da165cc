/** Summarization and translation: text in, text out. */
import { useState } from "react";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { generatedText } from "#app/demos/text/output-shapes.ts";

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  const key = props.info.task === "translation" ? "translation_text" : "summary_text";
  return (
    <WidgetFrame
      {...props}
      build={() => (text.trim() ? { ok: true, inputs: text } : { ok: false, message: "Type some text first." })}
      render={(r) => {
        const out = r.kind === "json" ? generatedText(r.output, key) : null;
        return out !== null ? (
          <p className="whitespace-pre-wrap break-words" data-generated-text="">
            {out}
          </p>
        ) : (
          <RawOutput value={r.kind === "json" ? r.output : null} />
        );
      }}
    >
      <TextInput label={props.info.task === "translation" ? "Text to translate" : "Text to summarise"} name="inputs" value={text} onChange={setText} rows={props.info.task === "translation" ? 3 : 6} />
    </WidgetFrame>
  );
}
