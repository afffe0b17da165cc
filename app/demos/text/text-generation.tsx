/** Text generation without chat: a prompt continued, streamed as the gateway streams it. */
import { useState } from "react";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { generatedText } from "#app/demos/text/output-shapes.ts";
import { exampleGeneratedText, exampleInputText } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/**
 * Every provider streams: the gateway reads TGI's token events (hf-inference, TGI endpoints) and
 * the OpenAI completion and chat chunks the other providers send through the same library call.
 */
const streamAlways = () => true;

/** A completion as the widget shows it: the prompt in grey, then what the model added to it. */
export function GeneratedTextOutput({ output, prompt }: { output: unknown; prompt: string }) {
  const out = generatedText(output, "generated_text");
  if (out === null) return <RawOutput value={output} />;
  return (
    <p className="whitespace-pre-wrap break-words" data-generated-text="">
      <span className="text-gray-600 dark:text-gray-400">{prompt}</span>
      {out.startsWith(prompt) ? out.slice(prompt.length) : out}
    </p>
  );
}

export function Widget(props: WidgetProps) {
  const [prompt, setPrompt] = useState(props.info.inputs.text);
  const [sent, setSent] = useState(prompt);
  const show = (text: string) => (
    <p className="whitespace-pre-wrap break-words" data-generated-text="">
      <span className="text-gray-600 dark:text-gray-400">{sent}</span>
      {text}
    </p>
  );
  return (
    <WidgetFrame
      {...props}
      stream={streamAlways}
      build={() => (prompt.trim() ? { ok: true, inputs: prompt } : { ok: false, message: "Type a prompt first." })}
      onRun={() => setSent(prompt)}
      renderPartial={show}
      renderExample={(ex) => {
        const output = exampleGeneratedText(ex, "generated_text");
        return output ? <GeneratedTextOutput output={output} prompt={exampleInputText(ex)} /> : null;
      }}
      render={(r) => {
        if (r.kind === "text") return show(r.text);
        return <GeneratedTextOutput output={r.kind === "json" ? r.output : null} prompt={sent} />;
      }}
    >
      <TextInput label="Prompt" name="inputs" value={prompt} onChange={setPrompt} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <GeneratedTextOutput output={output} prompt={sent.text} />;
}
