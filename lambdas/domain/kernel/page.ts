/** One page of a list: its items and whether more follow after the last. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** A list as the API answers it (docs/internals/jobs-and-credits.md, "Lists"). */
export interface ListBody<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/** `data` in the list shape every list route answers; `hasMore` says a next page exists. */
export function listOf<T>(data: T[], hasMore = false): ListBody<T> {
  return { object: 'list', data, has_more: hasMore };
}

/** A page presented item by item, in the list shape. */
export async function presentPage<T, P>(page: Page<T>, present: (item: T) => Promise<P> | P): Promise<ListBody<P>> {
  return listOf(await Promise.all(page.items.map(present)), page.hasMore);
}
