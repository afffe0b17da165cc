import type { ChildProcess } from "node:child_process";

/**
 * The URL a `modelyard serve` child announces ("running at http://localhost:N"), as 127.0.0.1;
 * rejects with the output so far when the child exits first or `timeoutMs` passes. The caller
 * collects the output (it usually needs it afterwards too) and hands a reader in.
 */
export function awaitServeUrl(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${Math.round(timeoutMs / 1000)} s:\n${output()}`)), timeoutMs);
    const check = () => {
      const m = /running at (http:\/\/localhost:\d+)/.exec(output());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace("localhost", "127.0.0.1"));
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code}:\n${output()}`));
    });
    check();
  });
}
