import { StatesError } from './states-errors.js';

/**
 * The reference paths and payload templates the local Distributed Map evaluates itself (its
 * ItemReader's Parameters, ItemSelector and BatchInput): `$` is the state's input, `$$` the context
 * object; a path is `$`, `$$` or dotted names and `[n]` indexes after them. Anything else (filters,
 * wildcards, intrinsic functions) is refused: no ASL the service deploys uses it in those fields.
 */
const SEGMENT = /^(?:\.([A-Za-z_][\w-]*)|\[(\d+)\])/;

export function readPath(path: string, input: unknown, context: unknown): unknown {
  const root = path.startsWith('$$') ? context : input;
  let rest = path.startsWith('$$') ? path.slice(2) : path.startsWith('$') ? path.slice(1) : null;
  if (rest === null) throw new StatesError('States.Runtime', `'${path}' is not a reference path`);
  let value: unknown = root;
  while (rest.length > 0) {
    const match = SEGMENT.exec(rest);
    if (!match) throw new StatesError('States.Runtime', `the local map does not evaluate the path '${path}'`);
    rest = rest.slice(match[0].length);
    const key = match[1] ?? Number(match[2]);
    const container = value as Record<string | number, unknown> | null;
    if (container === null || typeof container !== 'object' || !(key in container))
      throw new StatesError('States.Runtime', `the path '${path}' matches nothing in the state's input`);
    value = container[key];
  }
  return value;
}

/** A payload template: a field named `<name>.$` takes the value its path reads, every other field is copied. */
export function applyTemplate(template: unknown, input: unknown, context: unknown): unknown {
  if (Array.isArray(template)) return template.map((item) => applyTemplate(item, input, context));
  if (template === null || typeof template !== 'object') return template;
  return Object.fromEntries(
    Object.entries(template).map(([name, value]) =>
      name.endsWith('.$')
        ? [name.slice(0, -2), readPath(String(value), input, context)]
        : [name, applyTemplate(value, input, context)],
    ),
  );
}
