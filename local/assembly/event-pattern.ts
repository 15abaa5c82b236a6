type Pattern = Record<string, unknown>;

const OPERATORS = new Set(['prefix', 'suffix', 'anything-but', 'exists', 'equals-ignore-case', 'numeric']);

/** Refuses what the matcher does not implement, at start, rather than mis-filtering events later. */
export function checkPattern(pattern: unknown, where: string): void {
  if (!pattern || typeof pattern !== 'object' || Array.isArray(pattern))
    throw new Error(`${where}: an event pattern must be a JSON object`);
  for (const [name, value] of Object.entries(pattern)) {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item && typeof item === 'object') {
          const operator = Object.keys(item)[0]!;
          if (!OPERATORS.has(operator))
            throw new Error(`${where}: the local runtime does not implement the "${operator}" filter (field ${name})`);
        }
      }
    } else checkPattern(value, where);
  }
}

function matchesNumeric(conditions: unknown[], value: unknown): boolean {
  if (typeof value !== 'number') return false;
  for (let i = 0; i < conditions.length; i += 2) {
    const bound = Number(conditions[i + 1]);
    const ok = {
      '<': value < bound,
      '<=': value <= bound,
      '=': value === bound,
      '>': value > bound,
      '>=': value >= bound,
    }[String(conditions[i])];
    if (!ok) return false;
  }
  return true;
}

function matchesItem(item: unknown, value: unknown, present: boolean): boolean {
  if (item === null || typeof item !== 'object') return present && value === item;
  const [operator, argument] = Object.entries(item)[0]!;
  switch (operator) {
    case 'exists':
      return argument === present;
    case 'prefix':
      return present && typeof value === 'string' && value.startsWith(String(argument));
    case 'suffix':
      return present && typeof value === 'string' && value.endsWith(String(argument));
    case 'equals-ignore-case':
      return present && typeof value === 'string' && value.toLowerCase() === String(argument).toLowerCase();
    case 'numeric':
      return present && matchesNumeric(argument as unknown[], value);
    case 'anything-but': {
      if (!present) return false;
      if (argument && typeof argument === 'object' && !Array.isArray(argument))
        return !matchesItem(argument, value, present);
      return !(Array.isArray(argument) ? argument : [argument]).includes(value);
    }
    default:
      return false;
  }
}

/**
 * EventBridge's event-pattern matching (the filters of Pipes and event source mappings): every
 * field of the pattern must match; an array lists the values (or value filters: prefix, suffix,
 * anything-but, exists, equals-ignore-case, numeric) of which one must match; an array value in
 * the event matches when any element does.
 */
export function matchesPattern(pattern: unknown, event: unknown): boolean {
  const object = (event && typeof event === 'object' ? event : {}) as Record<string, unknown>;
  return Object.entries(pattern as Pattern).every(([name, wanted]) => {
    const present = Object.hasOwn(object, name);
    const value = object[name];
    if (!Array.isArray(wanted)) return present && matchesPattern(wanted, value);
    const values = Array.isArray(value) ? value : [value];
    return wanted.some((item) => values.some((candidate) => matchesItem(item, candidate, present)));
  });
}
