import { formatMetrics, type RunMetrics } from "#app/demos/shared/run-inference.ts";

/** Time and size after a result, as the chat demo puts its metrics after a reply. */
export function ResultFooter({ metrics, provider }: { metrics: RunMetrics; provider: string | null }) {
  const { time, size } = formatMetrics(metrics);
  return (
    <p className="mt-2 border-t border-gray-100 pt-1 text-xs text-gray-600 dark:border-gray-800 dark:text-gray-400" data-widget-metrics="">
      {[time, size, provider ? `via ${provider}` : null].filter(Boolean).join(" · ")}
    </p>
  );
}
