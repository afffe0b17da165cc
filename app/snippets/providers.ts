/**
 * Which inference providers the snippets panel can offer: the ones in the model's provider mapping
 * that @huggingface/inference 3.13.1 knows, plus its "auto" policy.
 */
import type { InferenceProvider, InferenceProviderOrPolicy } from "@huggingface/inference";
import { INFERENCE_PROVIDERS } from "@huggingface/inference";
import type { CatalogModel, ProviderMapping } from "#app/catalog/model-record.ts";

/** The provider list exactly as the pinned library exports it. */
export const SUPPORTED_PROVIDERS: readonly InferenceProvider[] = INFERENCE_PROVIDERS;

/** The library's policy name that lets the router pick the provider. */
export const AUTO_POLICY = "auto" satisfies InferenceProviderOrPolicy;

const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_PROVIDERS);

export function isSupportedProvider(name: string): name is InferenceProvider {
  return SUPPORTED.has(name);
}

export function isProviderOrPolicy(name: string): name is InferenceProviderOrPolicy {
  return name === AUTO_POLICY || isSupportedProvider(name);
}

/** Mapping entries the library can route, in the catalogue's order, one per provider. */
export function supportedMappings(model: CatalogModel): ProviderMapping[] {
  const seen = new Set<string>();
  const mappings: ProviderMapping[] = [];
  for (const mapping of model.inferenceProviderMapping) {
    if (!isSupportedProvider(mapping.provider) || seen.has(mapping.provider)) continue;
    seen.add(mapping.provider);
    mappings.push(mapping);
  }
  return mappings;
}

/**
 * Provider selector options: "auto" first, then the supported providers from the mapping.
 * Empty when no supported provider serves the model (the page then shows only library and
 * local-app code, with a note).
 */
export function supportedProvidersFor(model: CatalogModel): InferenceProviderOrPolicy[] {
  const providers = supportedMappings(model)
    .map((mapping) => mapping.provider)
    .filter(isSupportedProvider);
  return providers.length === 0 ? [] : [AUTO_POLICY, ...providers];
}

/** Providers in the mapping that 3.13.1 cannot route (newer or retired ones), for an honest note. */
export function unsupportedProvidersFor(model: CatalogModel): string[] {
  return [...new Set(model.inferenceProviderMapping.map((m) => m.provider).filter((p) => !isSupportedProvider(p)))];
}
