/**
 * The deterministic "raw transcript" rule: memory is never an automatic copy of the
 * conversation. Content is a transcript when at least two lines start with a chat role
 * ("user:", "assistant:", "[system]", "### Human" …) and at least two different roles occur,
 * when it carries chat-template markers, or when it is a JSON list of {role, content} turns.
 */
const ROLES = 'user|assistant|system|human|ai|bot|model|tool|developer';
const ROLE_LINE = new RegExp(`^\\s*[#>*\\-\\s]*(?:\\[\\s*(${ROLES})\\s*\\]|<\\s*(${ROLES})\\s*>|(${ROLES})\\s*:)`, 'i');
const TEMPLATE_MARKERS = /<\|im_start\|>|<\|im_end\|>|\[INST\]|\[\/INST\]|<\|start_header_id\|>|<start_of_turn>/i;

export function looksLikeRawTranscript(content: string, contentType: string): boolean {
  if (TEMPLATE_MARKERS.test(content)) return true;
  if (contentType === 'application/json') return jsonTurns(content);
  const roles: string[] = [];
  for (const line of content.split(/\r?\n/)) {
    const m = ROLE_LINE.exec(line);
    const role = m?.[1] ?? m?.[2] ?? m?.[3];
    if (role) roles.push(role.toLowerCase());
  }
  return roles.length >= 2 && new Set(roles).size >= 2;
}

function jsonTurns(content: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(content);
  } catch {
    return false;
  }
  const list = Array.isArray(v) ? v : typeof v === 'object' && v !== null ? Object.values(v).find(Array.isArray) : null;
  if (!Array.isArray(list)) return false;
  const turns = list.filter(
    (t) => typeof t === 'object' && t !== null && typeof (t as Record<string, unknown>).role === 'string',
  );
  return turns.length >= 2;
}
