import { useState } from "react";
import { percent } from "#app/demos/shared/label-score-chart.tsx";
import { exampleInputImageUrl } from "#app/demos/shared/example-answers.ts";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { useObjectUrl } from "#app/demos/shared/object-url.ts";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { boxToPercent, type Detection, detections, labelColours } from "#app/demos/vision/output-shapes.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/**
 * The image with each box drawn over it. The SVG spans the image and places boxes in percent of
 * its natural size, so they stay on their objects at any display size; labels are HTML at the
 * same percentages so their text keeps its size. The table below says the same for everyone.
 */
function Detections({ image, list }: { image: Blob; list: readonly Detection[] }) {
  const url = useObjectUrl(image);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const colours = labelColours(list.map((d) => d.label));
  const rects = size ? list.map((d) => ({ d, r: boxToPercent(d.box, size), colour: colours.get(d.label) ?? "#be123c" })) : [];
  return (
    <div className="space-y-3" data-detections="">
      <div className="relative inline-block max-w-full align-top">
        {url ? (
          <img
            src={url}
            alt={`The image sent, with ${list.length} detected object${list.length === 1 ? "" : "s"} outlined (listed in the table below)`}
            onLoad={(e) => setSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
            className="block max-h-[32rem] min-w-48 max-w-full rounded"
          />
        ) : null}
        <div aria-hidden="true" className="pointer-events-none absolute inset-0">
          <svg className="absolute inset-0 h-full w-full overflow-visible" data-detection-overlay="">
            {rects.map(({ d, r, colour }, i) =>
              r ? <rect key={i} data-box={d.label} x={`${r.x}%`} y={`${r.y}%`} width={`${r.width}%`} height={`${r.height}%`} fill="none" stroke={colour} strokeWidth={2.5} /> : null,
            )}
          </svg>
          {/* Lowest score first, so where labels overlap the likelier object's is on top. */}
          {[...rects].reverse().map(({ d, r, colour }, i) =>
            r ? (
              <span
                key={i}
                className={`absolute whitespace-nowrap rounded-sm px-1 text-[11px] font-semibold leading-4 text-white ${r.y > 6 ? "-translate-y-full" : ""}`}
                style={{ left: `${r.x}%`, top: `${r.y}%`, backgroundColor: colour }}
              >
                {d.label} {percent(d.score)}
              </span>
            ) : null,
          )}
        </div>
      </div>
      <table className="min-w-full text-left text-xs" data-detection-table="">
        <caption className="sr-only">Detected objects, highest score first</caption>
        <thead>
          <tr>
            <th scope="col" className="border-b border-gray-200 px-2 py-1 font-semibold dark:border-gray-700">
              Object
            </th>
            <th scope="col" className="border-b border-gray-200 px-2 py-1 font-semibold dark:border-gray-700">
              Score
            </th>
            <th scope="col" className="border-b border-gray-200 px-2 py-1 font-semibold dark:border-gray-700">
              Box (x min, y min, x max, y max; pixels)
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((d, i) => (
            <tr key={i}>
              <th scope="row" className="border-b border-gray-100 px-2 py-1 font-medium dark:border-gray-800">
                <span aria-hidden="true" className="mr-1.5 inline-block h-2.5 w-2.5 rounded-sm align-middle" style={{ backgroundColor: colours.get(d.label) }} />
                {d.label}
              </th>
              <td className="border-b border-gray-100 px-2 py-1 tabular-nums dark:border-gray-800">{percent(d.score)}</td>
              <td className="border-b border-gray-100 px-2 py-1 tabular-nums dark:border-gray-800">
                {[d.box.xmin, d.box.ymin, d.box.xmax, d.box.ymax].map((v) => Math.round(v)).join(", ")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The boxes drawn over the image sent (the widget's and /compare's); without the image, the answer as JSON. */
export function ObjectDetectionOutput({ output, image }: { output: unknown; image: Blob | null }) {
  const list = detections(output);
  if (!list || !image) return <RawOutput value={output} />;
  if (list.length === 0) return <p data-detections="">No objects found above the threshold.</p>;
  return <Detections image={image} list={list} />;
}

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  const [sent, setSent] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (image ? { ok: true, inputs: null, file: image } : { ok: false, message: "Choose an image to find objects in." })}
      onRun={() => setSent(image)}
      render={(r) => <ObjectDetectionOutput output={r.kind === "json" ? r.output : null} image={sent} />}
    >
      <ImageInput label="Image" value={image} onChange={setImage} suggestedUrl={exampleInputImageUrl(props.info.example)} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <ObjectDetectionOutput output={output} image={sent.image ?? null} />;
}
