/**
 * Preloaded into the benchmarked server by bench/gateway.ts (`--expose-gc --import tsx --import
 * bench/gateway-memory-probe.ts`): on SIGUSR2 it collects garbage and prints one line with the
 * process's memory, so the bench can report live heap, not only RSS. Benchmark-only; the product
 * never loads it.
 */
import process from "node:process";

const collect = (globalThis as { gc?: () => void }).gc;

process.on("SIGUSR2", () => {
  collect?.();
  const m = process.memoryUsage();
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  process.stdout.write(`memory-probe rss=${mb(m.rss)} heapUsed=${mb(m.heapUsed)} heapTotal=${mb(m.heapTotal)} external=${mb(m.external)} arrayBuffers=${mb(m.arrayBuffers)} gc=${collect ? 1 : 0}\n`);
});
