import { COLOR_CLASSES, getTaskInfo } from "#app/catalog/task-colors.ts";

/** A task name in its colour; a link to the filtered listing unless `asLink` is false. */
export function TaskChip({ task, asLink = true, size = "sm" }: { task: string; asLink?: boolean; size?: "sm" | "md" }) {
  const info = getTaskInfo(task);
  const c = COLOR_CLASSES[info.color];
  const cls = `inline-flex items-center gap-1.5 rounded-md ring-1 ring-inset font-medium ${c.chip} ${size === "md" ? "px-2.5 py-1 text-sm" : "px-2 py-0.5 text-xs"}`;
  const body = (
    <>
      <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${c.dot}`} />
      {info.name}
    </>
  );
  return asLink ? (
    <a href={`/models?pipeline_tag=${encodeURIComponent(task)}`} className={`${cls} hover:underline`}>
      {body}
    </a>
  ) : (
    <span className={cls}>{body}</span>
  );
}
