/** The map's aggregates of positions (`GET /api/profile-positions/aggregates`). */

/** Visible members per 1-degree sector (spec "Position aggregate"); delta* is the cell's full size. */
export interface PositionAggregate {
  centerLat: number;
  centerLon: number;
  deltaLat: number;
  deltaLon: number;
  count: number;
  tsUpdated: number;
}
