// What a list's answers say of its count when a search counts its matches only up to SEARCH_COUNT_CAP
// (docs/decisions.md#77): "+" past the cap, and pages that go on while they are full.

export interface ListCount {
  total: number;
  capped: boolean;
}

/** The X-Total-Count header's value: "1000+" past the cap. */
export const totalCountValue = ({ total, capped }: ListCount) => `${total}${capped ? "+" : ""}`;

/** How many pages the pager shows: past the cap, a full page has a next one. */
export const pageCount = ({ total, capped }: ListCount, page: { page: number; size: number; shown: number }) =>
  Math.max(1, Math.ceil(total / page.size), capped && page.shown === page.size ? page.page + 1 : 0);
