import fs from "node:fs";
import os from "node:os";

/**
 * An import is batch work, and on a small machine it shares the cores with the server: at normal
 * priority the kernel preempts the server's event loop for it (docs/decisions/0029-serve-memory-and-import-priority.md).
 * Ten steps nicer (as `nice` does), it gets only the time the server leaves; raising the value
 * needs no privilege. Returns the priority the process runs at.
 *
 * On Linux a nice value belongs to a thread, and setpriority() on the process id reaches only the
 * main thread. By the time this runs, V8 has started its helper threads (parallel scavenges,
 * concurrent marking and compiling) and tsx its esbuild service: left at normal priority, they
 * competed with the server through an import's first seconds. So every thread of the process, and
 * every child it has started, is made nicer; threads and children started later inherit it.
 */
export function lowerCpuPriority(): number {
  let target: number;
  try {
    target = Math.min(19, os.getPriority() + 10);
  } catch {
    // A platform without priorities imports at the one it has.
    return 0;
  }
  for (const id of [...threadIds(), ...childIds()]) {
    try {
      // Never less nice than it is: a child may have been made nicer on its own.
      if (os.getPriority(id) < target) os.setPriority(id, target);
    } catch {
      // Gone since it was listed.
    }
  }
  try {
    os.setPriority(target);
  } catch {
    // As above.
  }
  return os.getPriority();
}

/** The ids of this process's threads (Linux), or none where /proc does not list them. */
export function threadIds(): number[] {
  try {
    return fs.readdirSync("/proc/self/task").map(Number).filter(Number.isInteger);
  } catch {
    return [];
  }
}

/** The ids of the processes this process's threads have started (Linux, /proc/<tid>/children). */
function childIds(): number[] {
  const out: number[] = [];
  for (const tid of threadIds()) {
    try {
      for (const id of fs.readFileSync(`/proc/self/task/${tid}/children`, "utf8").split(/\s+/)) if (id) out.push(Number(id));
    } catch {
      // Not every kernel has the file.
    }
  }
  return out;
}
