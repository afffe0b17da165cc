import { data, useLoaderData } from "react-router";
import type { Route } from "./+types/settings.usage";
import { AccountPage, SETTINGS_TABS, tabsFor } from "#app/auth/form-ui.tsx";
import { buildUsageReport } from "#app/auth/usage-report.server.ts";
import { UsageReportView } from "#app/auth/usage-report.tsx";
import { requireViewer } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Your usage · Modelyard" }, { name: "robots", content: "noindex" }];
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireViewer(request);
  const report = await buildUsageReport(getDb().db, request, { userId: viewer.id, dimensions: ["day", "provider", "model"] });
  return data({ report }, { status: report.page > report.last ? 404 : 200 });
}

export default function MyUsagePage() {
  const { report } = useLoaderData<typeof loader>();
  return (
    <AccountPage title="Your usage" intro="Every call you made through this server, in the pages’ demos or with your tokens. Records keep no prompt and no token." tabs={tabsFor(SETTINGS_TABS, "/settings/usage")}>
      <UsageReportView report={report} basePath="/settings/usage" showSubject={false} />
    </AccountPage>
  );
}
