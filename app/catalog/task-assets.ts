/**
 * Where the task guides' demo media live. They are not in @huggingface/tasks: the package names
 * each file, and the Hub serves it from an asset host (MODELYARD_TASK_ASSET_BASE). Shared because
 * the task pages and the widgets' examples both show them.
 */

/** Demo media live outside the package: `<base>/<task>/<filename>`, as on the Hub's task pages. */
export function taskAssetUrl(base: string, task: string, filename: string): string {
  return `${base.replace(/\/+$/, "")}/${encodeURIComponent(task)}/${filename.split("/").map(encodeURIComponent).join("/")}`;
}
