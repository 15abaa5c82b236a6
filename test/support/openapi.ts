interface Response {
  $ref?: string;
  description?: string;
  headers?: Record<string, unknown>;
  content: Record<string, { schema: Record<string, unknown> }>;
}

/** An operation's response as it reads once its `$ref` (a shared error answer, components.responses) is followed. */
export function resolvedResponse(
  document: { components: { responses?: Record<string, Response> } },
  response: unknown,
) {
  const given = response as Response;
  if (!given.$ref) return given as Response & { headers: Record<string, unknown> };
  const name = given.$ref.replace('#/components/responses/', '');
  const shared = document.components.responses?.[name];
  if (!shared) throw new Error(`${given.$ref} names no shared response`);
  return { ...shared, ...given, headers: shared.headers ?? {} } as Response & { headers: Record<string, unknown> };
}
