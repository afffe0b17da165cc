import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/admin.usage";
import { ADMIN_TABS, AccountPage, tabsFor } from "#app/auth/form-ui.tsx";
import { buildUsageReport } from "#app/auth/usage-report.server.ts";
import { UsageReportView } from "#app/auth/usage-report.tsx";
import { authConfig, requireAdmin } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Usage · Admin · Modelyard" }, { name: "robots", content: "noindex" }];
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const report = await buildUsageReport(getDb().db, request, { dimensions: ["day", "subject", "provider", "model"] });
  // A page of calls past the last one is not a page (404), as on the other listings.
  return data({ report, retention: authConfig().usageRetentionDays }, { status: report.page > report.last ? 404 : 200 });
}

export default function AdminUsagePage() {
  const { report, retention } = useLoaderData<typeof loader>();
  return (
    <AccountPage
      title="Usage"
      intro={`Every gateway call: who, which model and provider, whose key paid, and how long it took. No prompt and no token is recorded. Records are kept ${retention} days.`}
      tabs={tabsFor(ADMIN_TABS, "/admin/usage")}
    >
      <UsageReportView report={report} basePath="/admin/usage" showSubject csvHref={`/admin/usage.csv?days=${report.days}`} />
    </AccountPage>
  );
}
