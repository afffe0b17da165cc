import { useEffect, useState } from "react";

/**
 * An object URL for a Blob while the component shows it: created after render and revoked when
 * the Blob changes or the component goes, so previews and results do not keep their bytes alive.
 */
export function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}
