/** One page of a list: its items and whether more follow after the last. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}
