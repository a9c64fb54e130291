/** A page of a cursor-paged list, as the API answers it. */

/** A page of a list: `cursor` is null at the end. */
export interface Page<T> {
  items: T[];
  cursor: string | null;
}
