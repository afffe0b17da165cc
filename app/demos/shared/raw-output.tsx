/** An answer a widget could not draw: said plainly, with the JSON as it came. */
export function RawOutput({ value }: { value: unknown }) {
  return (
    <div data-widget-raw="">
      <p className="text-xs text-gray-700 dark:text-gray-300">The answer is not in the shape this widget draws; here it is as it came:</p>
      <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-gray-50 p-2 font-mono text-xs dark:bg-gray-900">{JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}
