import type { Route } from "./+types/admin.usage[.]csv";
import { reportRange, sinceDays } from "#app/auth/usage-report.server.ts";
import { requireAdmin } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { usageRecordsAfter } from "#app/db/queries/usage.server.ts";

const COLUMNS = ["at", "subject", "user_id", "token_id", "model", "provider", "task", "endpoint", "paid_by", "status", "duration_ms", "ttft_ms", "tokens_in", "tokens_out", "bill_to"] as const;

/** A field as RFC 4180 writes it, with a leading formula character defused for spreadsheets. */
function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** GET /admin/usage.csv?days=N: every record of the range, in the order recorded (each at its call's end), streamed a page at a time. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { days } = reportRange(request);
  const since = sinceDays(days);
  const db = getDb().db;
  const encoder = new TextEncoder();
  let afterId = 0;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${COLUMNS.join(",")}\r\n`));
        return;
      }
      const rows = await usageRecordsAfter(db, since, afterId, 2000);
      if (rows.length === 0) return controller.close();
      afterId = rows[rows.length - 1]!.id;
      controller.enqueue(encoder.encode(rows.map((r) => COLUMNS.map((c) => csvField(r[c])).join(",")).join("\r\n") + "\r\n"));
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="modelyard-usage-${since.slice(0, 10)}-${days}d.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
