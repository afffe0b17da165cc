import { useState } from "react";
import { percent } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { fillMaskCandidates } from "#app/demos/text/output-shapes.ts";
import { exampleFillMask } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The candidates, most likely first (the widget's and /compare's). */
export function FillMaskOutput({ output }: { output: unknown }) {
  const list = fillMaskCandidates(output);
  if (!list) return <RawOutput value={output} />;
  return (
    <ol className="space-y-1" aria-label="Candidates, most likely first" data-fill-mask="">
      {list.map((c, i) => (
        <li key={i} className="flex items-baseline gap-3">
          <span className="w-5 shrink-0 text-right tabular-nums text-gray-600 dark:text-gray-400">{i + 1}.</span>
          <span className="min-w-0 flex-1 break-words">
            <span className="font-mono font-semibold">{c.token}</span>
            {c.sequence ? <span className="block break-words text-xs text-gray-700 dark:text-gray-300">{c.sequence}</span> : null}
          </span>
          <span className="shrink-0 tabular-nums">{percent(c.score)}</span>
        </li>
      ))}
    </ol>
  );
}

export function Widget(props: WidgetProps) {
  const [text, setText] = useState(props.info.inputs.text);
  const mask = props.info.maskToken;
  return (
    <WidgetFrame
      {...props}
      build={() => {
        if (!text.trim()) return { ok: false, message: "Type a sentence with a mask." };
        if (mask && !text.includes(mask)) return { ok: false, message: `Put ${mask} where the missing word goes.` };
        return { ok: true, inputs: text };
      }}
      renderExample={(ex) => {
        const output = exampleFillMask(ex);
        return output ? <FillMaskOutput output={output} /> : null;
      }}
      render={(r) => <FillMaskOutput output={r.kind === "json" ? r.output : null} />}
    >
      <TextInput
        label="Text"
        name="inputs"
        value={text}
        onChange={setText}
        hint={mask ? `Write ${mask} where the missing word goes.` : "This catalogue does not say which mask token this model uses: write its tokenizer's mask token (mask_token in tokenizer_config.json) where the missing word goes."}
      />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output }: OutputProps) {
  return <FillMaskOutput output={output} />;
}
