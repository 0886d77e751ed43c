/**
 * The contract's forbidden telemetry content ("Attribute and baggage policy"), one canary
 * category per item, with the contract's own words for the report.
 */
export const FORBIDDEN_CATEGORIES = [
  'bearer_token',
  'api_key',
  'cookie',
  'authorization_header',
  'subject',
  'email',
  'person_name',
  'prompt',
  'message_text',
  'reasoning',
  'memory_body',
  'tool_arguments',
  'tool_result',
  'file_body',
  'protected_skill',
  'provider_stderr',
  'environment_variable',
  'native_checkpoint',
  'kubernetes_object',
] as const;
export type ForbiddenCategory = (typeof FORBIDDEN_CATEGORIES)[number];

export const CATEGORY_LABEL: Readonly<Record<ForbiddenCategory, string>> = {
  bearer_token: 'bearer token',
  api_key: 'API key',
  cookie: 'cookie',
  authorization_header: 'authorization header',
  subject: 'raw subject',
  email: 'email address',
  person_name: 'person name',
  prompt: 'prompt',
  message_text: 'message text',
  reasoning: 'reasoning content',
  memory_body: 'memory body',
  tool_arguments: 'tool arguments',
  tool_result: 'tool result',
  file_body: 'file body',
  protected_skill: 'protected skill content',
  provider_stderr: 'provider stderr',
  environment_variable: 'environment variable',
  native_checkpoint: 'native checkpoint',
  kubernetes_object: 'Kubernetes object body',
};

export function isForbiddenCategory(x: unknown): x is ForbiddenCategory {
  return typeof x === 'string' && (FORBIDDEN_CATEGORIES as readonly string[]).includes(x);
}
