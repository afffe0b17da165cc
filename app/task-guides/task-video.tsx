import { useState } from "react";

/**
 * A privacy-friendly video: until the visitor clicks, the page shows a drawn poster and a plain
 * link, and loads nothing from the video host (no thumbnail, no iframe, no script). With
 * JavaScript the click swaps in the youtube-nocookie.com player; without it the link opens the
 * video on YouTube.
 */
export function TaskVideo({ youtubeId, title }: { youtubeId: string; title: string }) {
  const [playing, setPlaying] = useState(false);
  const watchUrl = `https://www.youtube.com/watch?v=${encodeURIComponent(youtubeId)}`;
  if (playing) {
    return (
      <div className="aspect-video overflow-hidden rounded-lg bg-black">
        <iframe
          className="h-full w-full"
          src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(youtubeId)}?autoplay=1`}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
    );
  }
  return (
    <a
      href={watchUrl}
      data-video-link=""
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        setPlaying(true);
      }}
      className="group flex aspect-video flex-col items-center justify-center gap-3 rounded-lg bg-gradient-to-br from-gray-800 to-gray-950 p-4 text-center text-white"
    >
      <svg viewBox="0 0 68 48" aria-hidden="true" className="h-12 w-16 transition-transform group-hover:scale-110">
        <path d="M66.5 7.7a8.5 8.5 0 0 0-6-6C55.3 0 34 0 34 0S12.7 0 7.5 1.7a8.5 8.5 0 0 0-6 6C0 13 0 24 0 24s0 11 1.5 16.3a8.5 8.5 0 0 0 6 6C12.7 48 34 48 34 48s21.3 0 26.5-1.7a8.5 8.5 0 0 0 6-6C68 35 68 24 68 24s0-11-1.5-16.3z" fill="#d32f2f" />
        <path d="M45 24 27 14v20" fill="#fff" />
      </svg>
      <span className="font-semibold">Play video: {title}</span>
      <span className="text-xs text-gray-300">Nothing is loaded from YouTube until you click.</span>
    </a>
  );
}
