import os from "node:os";

/**
 * An import is batch work, and on a small machine it shares the cores with the server: at normal
 * priority the kernel preempts the server's event loop for it (docs/decisions/0029-serve-memory-and-import-priority.md).
 * Ten steps nicer (as `nice` does), it gets only the time the server leaves; raising the value
 * needs no privilege. Returns the priority the process runs at.
 */
export function lowerCpuPriority(): number {
  try {
    os.setPriority(Math.min(19, os.getPriority() + 10));
  } catch {
    // A platform without priorities imports at the one it has.
  }
  return os.getPriority();
}
