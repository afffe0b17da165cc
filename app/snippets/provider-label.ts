/**
 * A provider's name as the pages list it: marked when the model's mapping to it is "staging", which
 * the Hub describes as meant for test purposes only. No imports, so client components can use it
 * without the inference client in their bundle.
 */
export const providerLabel = (provider: string, staging: boolean): string => (staging ? `${provider} (staging)` : provider);
