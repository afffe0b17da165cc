import { useEffect, useRef, useState } from "react";
import { exampleInputImageUrl } from "#app/demos/shared/example-answers.ts";
import { ImageInput } from "#app/demos/shared/image-input.tsx";
import { percent } from "#app/demos/shared/label-score-chart.tsx";
import { useObjectUrl } from "#app/demos/shared/object-url.ts";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { hexToRgb, type LegendEntry, type Segment, segmentLegend, segments, tintMask } from "#app/demos/vision/output-shapes.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** One mask, decoded from its PNG and tinted in its segment's colour, stretched over the image. */
function MaskLayer({ mask, colour, visible, name }: { mask: string; colour: string; visible: boolean; name: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const img = new Image();
    img.onload = () => {
      const canvas = ref.current;
      const ctx = canvas?.getContext("2d");
      if (!live || !canvas || !ctx) return;
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
      data.data.set(tintMask(data.data, hexToRgb(colour)));
      ctx.putImageData(data, 0, 0);
    };
    img.onerror = () => live && setFailed(true);
    img.src = `data:image/png;base64,${mask}`;
    return () => {
      live = false;
    };
  }, [mask, colour]);
  if (failed) return null;
  return <canvas ref={ref} data-mask={name} className={`absolute inset-0 h-full w-full ${visible ? "" : "hidden"}`} />;
}

function Segmentation({ image, list }: { image: Blob; list: readonly Segment[] }) {
  const url = useObjectUrl(image);
  const legend: LegendEntry[] = segmentLegend(list);
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const toggle = (i: number) =>
    setHidden((old) => {
      const next = new Set(old);
      if (!next.delete(i)) next.add(i);
      return next;
    });
  return (
    <div className="flex flex-wrap items-start gap-4" data-segmentation="">
      <div className="relative inline-block max-w-full">
        {url ? (
          <img src={url} alt={`The image sent, with ${list.length} segment masks over it (listed in the legend)`} className="block max-h-[32rem] min-w-48 max-w-full rounded" />
        ) : null}
        <div aria-hidden="true">
          {list.map((s, i) => (
            <MaskLayer key={i} mask={s.mask} colour={legend[i]?.colour ?? "#be123c"} visible={!hidden.has(i)} name={legend[i]?.name ?? s.label} />
          ))}
        </div>
      </div>
      <fieldset data-segment-legend="">
        <legend className="mb-1 text-xs font-semibold text-gray-700 dark:text-gray-300">Segments (show or hide each mask)</legend>
        <ul className="space-y-1">
          {legend.map((l, i) => (
            <li key={i}>
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={!hidden.has(i)} onChange={() => toggle(i)} data-segment-toggle={l.name} />
                <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ backgroundColor: l.colour }} />
                <span className="font-medium">{l.name}</span>
                {l.score !== null ? <span className="text-xs tabular-nums text-gray-700 dark:text-gray-300">{percent(l.score)}</span> : null}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
    </div>
  );
}

/** The masks over the image sent (the widget's and /compare's); without the image, the answer as JSON. */
export function ImageSegmentationOutput({ output, image }: { output: unknown; image: Blob | null }) {
  const list = segments(output);
  return list && image ? <Segmentation image={image} list={list} /> : <RawOutput value={output} />;
}

export function Widget(props: WidgetProps) {
  const [image, setImage] = useState<File | null>(null);
  const [sent, setSent] = useState<File | null>(null);
  return (
    <WidgetFrame
      {...props}
      build={() => (image ? { ok: true, inputs: null, file: image } : { ok: false, message: "Choose an image to segment." })}
      onRun={() => setSent(image)}
      render={(r) => <ImageSegmentationOutput output={r.kind === "json" ? r.output : null} image={sent} />}
    >
      <ImageInput label="Image" value={image} onChange={setImage} suggestedUrl={exampleInputImageUrl(props.info.example)} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <ImageSegmentationOutput output={output} image={sent.image ?? null} />;
}
