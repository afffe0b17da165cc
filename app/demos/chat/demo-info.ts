/** What the chat demo needs to know about a model, built on the server and sent to the browser. */

export interface ChatDemoProvider {
  /** "together", or "endpoint:<name>" for a configured endpoint. */
  value: string;
  label: string;
  kind: "provider" | "endpoint";
}

export interface ChatParameterSpec {
  min: number;
  max: number;
  step: number;
  default: number;
  description: string;
}

export interface ChatDemoInfo {
  modelId: string;
  providers: ChatDemoProvider[];
  /** null when the chat template is fine or unknown; otherwise why the demo refuses to run. */
  templateProblem: { message: string; line: number | null; column: number | null; templateName: string | null } | null;
  parameters: { temperature: ChatParameterSpec; max_tokens: ChatParameterSpec; top_p: ChatParameterSpec };
  /** Whether the server holds a key of its own, so visitors can try without a token. */
  serverKey: boolean;
  /** Whether messages may carry images (image-text-to-text models). */
  acceptsImages?: boolean;
}

export function endpointValue(name: string): string {
  return `endpoint:${name}`;
}

/** The body fields that select where the call goes, from a picker value. */
export function routeFields(value: string): { provider: string } | { endpoint: string } {
  return value.startsWith("endpoint:") ? { endpoint: value.slice("endpoint:".length) } : { provider: value };
}
