/** Visual and document QA answers: the best one in words, and every answer's score when given. */
import { LabelScoreChart, percent } from "#app/demos/shared/label-score-chart.tsx";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { type ScoredAnswer, scoredAnswers } from "#app/demos/vision/output-shapes.ts";

/** Visual and document QA's answer (the widgets' and /compare's); anything else as JSON. */
export function ScoredAnswersOutput({ output }: { output: unknown }) {
  const answers = scoredAnswers(output);
  return answers ? <ScoredAnswers answers={answers} caption="Answers by score" /> : <RawOutput value={output} />;
}

export function ScoredAnswers({ answers, caption }: { answers: readonly ScoredAnswer[]; caption: string }) {
  const [best] = answers;
  const scored = answers.flatMap((a) => (a.score === null ? [] : [{ label: a.answer, score: a.score }]));
  return (
    <div className="space-y-2">
      <p>
        <span className="font-semibold">Answer:</span> <span data-vision-answer="">{best?.answer}</span>
        {best?.score != null ? <span className="ml-2 text-xs text-gray-700 dark:text-gray-300">score {percent(best.score)}</span> : null}
      </p>
      {scored.length > 1 ? <LabelScoreChart items={scored} caption={caption} labelHeader="Answer" /> : null}
    </div>
  );
}
