/** Matching for the /tasks filter box; shared by the server (no-JS GET form) and the browser. */
export interface SearchableTask {
  id: string;
  name: string;
  modalityLabel: string;
  summary: string;
  subtasks: ReadonlyArray<{ type: string; name: string }>;
}

export function taskSearchText(task: SearchableTask): string {
  return [task.id, task.name, task.modalityLabel, task.summary, ...task.subtasks.flatMap((s) => [s.type, s.name])]
    .join(" ")
    .toLowerCase();
}

/** True when every word of the query occurs in the task's id, name, modality, summary or subtasks. */
export function taskMatches(task: SearchableTask, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = taskSearchText(task);
  return words.every((w) => text.includes(w));
}
