import type { ComponentType } from "react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/$name";
import { legacyIdCandidates } from "#app/catalog/legacy-ids.ts";
import { loadOrgPage } from "#app/catalog-search/views/org-page.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { existingModelIds } from "#app/db/queries/models.server.ts";
import { OrgListing } from "#app/catalog-search/views/org-listing.tsx";
import { findModelPage, modelSuggestions } from "#app/model-page/model-page.server.ts";
import { filesViewStatus } from "#app/model-page/files.server.ts";
import { notFound } from "#app/ui/general-error-boundary.tsx";
// Legacy ids without an organisation (e.g. /gpt2) share the model page's view and boundary.
import ModelPage, { ErrorBoundary, meta as modelMeta } from "#app/routes/$org.$name.tsx";

export { ErrorBoundary };

// The build wraps a route's default export so that it reads params and data through hooks (this
// route's, where it is rendered here) and takes no props; its declared props are /:org/:name's.
const ModelView = ModelPage as unknown as ComponentType;

export const meta: Route.MetaFunction = (args) => {
  const d = args.data;
  if (d?.kind === "org") {
    return [
      { title: `${d.org.org} · Modelyard` },
      { name: "description", content: `Models by ${d.org.org} in this catalogue.` },
      ...(d.org.pastEnd ? [{ name: "robots", content: "noindex" }] : []),
    ];
  }
  // The model page's meta reads only `data`; the rest of its arguments are typed for /:org/:name.
  return modelMeta({ ...args, data: d?.kind === "model" ? d : undefined } as unknown as Parameters<typeof modelMeta>[0]);
};

/**
 * One segment is a legacy model id (e.g. /gpt2) or an author (/Qwen): an exact model id wins, an
 * author with models gets the organisation page, a legacy id the Hub moved into an organisation
 * redirects there (app/catalog/legacy-ids.ts), and anything else is the model 404 with suggestions.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  // Flat, so the model view (which reads its data through useLoaderData) finds the model page's data.
  const model = await findModelPage(params.name, url, context);
  if (model) return data({ kind: "model" as const, ...model }, { status: filesViewStatus(model.files) });
  const org = await loadOrgPage(params.name, url);
  if (org) return data({ kind: "org" as const, org }, { status: org.pastEnd ? 404 : 200 });
  // A legacy id the Hub moved into an organisation (/gpt2 → /openai-community/gpt2): as the Hub does, redirect.
  const moved = await existingModelIds(getDb().db, legacyIdCandidates(params.name));
  if (moved.length === 1) throw redirect(`/${moved[0]!}${new URL(url).search}`, 301);
  throw notFound(`No model or author '${params.name}' in this catalogue.`, await modelSuggestions(params.name));
}

export default function SingleSegment({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "org") return <OrgListing data={loaderData.org} />;
  return <ModelView />;
}
