/** What a discovery screen says instead of profiles: still loading, failed (with a retry), or nobody. */

import { DISCOVERY_TEXTS } from "../domain/discovery.ts";

/** The parts of a list query the status needs. */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/** Renders nothing while there are profiles to show. */
export function DiscoveryStatus({ query, count }: { query: ListQueryState; count: number }) {
  if (query.isError && count === 0) {
    return (
      <div className="discovery-status" role="alert">
        <p className="error">{DISCOVERY_TEXTS.loadFailed}</p>
        <button type="button" onClick={() => query.refetch()} disabled={query.isFetching}>
          {DISCOVERY_TEXTS.retry}
        </button>
      </div>
    );
  }
  if (count > 0) return null;
  return (
    <p className="discovery-status" role="status">
      {query.isPending ? DISCOVERY_TEXTS.loading : DISCOVERY_TEXTS.nobodyNear}
    </p>
  );
}
