/**
 * What a paged list page (queue, health) asks the server for: the page (from 1), a status filter ('' for every
 * status) and search words. The console's own state, not a server shape: the list calls turn it into the
 * `limit`/`offset`/`status`/`search` query of docs/console-contract.md §7.
 */
export interface ListParams<Status extends string> {
  page: number;
  status: Status | '';
  search: string;
}
