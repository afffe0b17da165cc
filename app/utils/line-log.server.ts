import fs from "node:fs";

/**
 * Log lines written to a file descriptor off the event loop.
 *
 * On Linux, Node writes process.stdout synchronously when it is a pipe or a file, so a
 * console.log per request stalls every request in the process whenever whoever reads the pipe
 * (a supervisor, a terminal multiplexer, a benchmark) falls behind: 200 concurrent streams saw
 * their time to first token jump by up to seconds. This writer queues lines, writes them in
 * batches through libuv's thread pool, and when more than `maxBufferedBytes` are waiting it drops
 * lines and says how many, rather than growing without bound or blocking.
 */
export interface LineLog {
  (line: string): void;
  /** Writes whatever is queued, synchronously (process exit). */
  flushSync(): void;
  /** Resolves once everything queued so far is written. */
  drained(): Promise<void>;
}

const RETRY_MS = 10;

export function createLineLog(fd: number, maxBufferedBytes = 1 << 20): LineLog {
  let queue: string[] = [];
  let queuedBytes = 0;
  let dropped = 0;
  let writing = false;
  let scheduled = false;
  let waiters: Array<() => void> = [];

  const take = (): string => {
    let text = queue.join("");
    if (dropped > 0) text += `[log] ${dropped} line${dropped === 1 ? "" : "s"} dropped: the log's reader fell behind\n`;
    queue = [];
    queuedBytes = 0;
    dropped = 0;
    return text;
  };

  const settle = () => {
    const done = waiters;
    waiters = [];
    for (const w of done) w();
  };

  const pump = () => {
    scheduled = false;
    if (writing) return;
    if (queue.length === 0 && dropped === 0) return settle();
    writing = true;
    const buf = Buffer.from(take());
    const writeFrom = (offset: number) => {
      fs.write(fd, buf, offset, buf.length - offset, null, (err, written) => {
        if (err) {
          // A non-blocking pipe that is full: try again shortly. Anything else: this batch is
          // lost, and the next line tries again.
          if ((err).code === "EAGAIN") return void setTimeout(() => writeFrom(offset), RETRY_MS);
          writing = false;
          return pump();
        }
        if (offset + written < buf.length) return writeFrom(offset + written);
        writing = false;
        pump();
      });
    };
    writeFrom(0);
  };

  const log = ((line: string) => {
    if (queuedBytes > maxBufferedBytes) {
      dropped += 1;
      return;
    }
    queue.push(`${line}\n`);
    queuedBytes += line.length + 1;
    // Lines of one tick go out in one write; a write in flight picks them up when it ends.
    if (!scheduled && !writing) {
      scheduled = true;
      setImmediate(pump);
    }
  }) as LineLog;

  log.flushSync = () => {
    if (queue.length === 0 && dropped === 0) return;
    const buf = Buffer.from(take());
    let offset = 0;
    let busy = 0;
    // A non-blocking pipe may take part of it, or none for a moment (EAGAIN): keep at it, briefly.
    while (offset < buf.length && busy < 1_000) {
      try {
        offset += fs.writeSync(fd, buf, offset, buf.length - offset);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EAGAIN") return;
        busy += 1;
      }
    }
  };
  log.drained = () =>
    new Promise<void>((resolve) => {
      if (!writing && queue.length === 0 && dropped === 0) return resolve();
      waiters.push(resolve);
    });
  return log;
}

let stdoutLog: LineLog | undefined;

/** The process's stdout as a LineLog, one per process. */
export function stdoutLineLog(): LineLog {
  if (!stdoutLog) {
    const log = createLineLog(1);
    process.once("exit", () => log.flushSync());
    stdoutLog = log;
  }
  return stdoutLog;
}
