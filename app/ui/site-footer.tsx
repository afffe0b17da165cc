export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-gray-200 py-8 text-sm text-gray-600 dark:border-gray-800 dark:text-gray-400">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4">
        <p>
          Modelyard — a self-hosted model catalogue. Catalogue facts come from public Hugging Face Hub data; download counts are
          30-day figures. Counts from a dated snapshot give its date on the model's page and in each count's tooltip.
        </p>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-4 gap-y-1">
          <a className="hover:underline" href="/models">
            Models
          </a>
          <a className="hover:underline" href="/tasks">
            Tasks
          </a>
          <a className="hover:underline" href="/spaces">
            Spaces
          </a>
          <a className="hover:underline" href="/playground">
            Playground
          </a>
          <a className="hover:underline" href="/compare">
            Compare
          </a>
          <a className="hover:underline" href="/chat-template">
            Chat templates
          </a>
          <a className="hover:underline" href="/docs/api">
            OpenAI-compatible API
          </a>
          <a className="hover:underline" href="/docs/api#hub">
            Hub-compatible API
          </a>
          {/* The one way to reach it other than a token error: where a visitor's Hub token is kept. */}
          <a className="hover:underline" href="/settings">
            Settings
          </a>
        </nav>
      </div>
    </footer>
  );
}
