import type { ProtectedRegion } from './region-types.js';

/**
 * Sorts regions and merges the ones that overlap, so the result is ordered and
 * disjoint (touching regions stay separate: each keeps its own text for the
 * integrity check). A merged region is inline only if all its parts were.
 */
export function coalesceRegions(regions: readonly ProtectedRegion[]): ProtectedRegion[] {
  const sorted = [...regions].sort((a, b) => a.from - b.from || b.to - a.to);
  const merged: ProtectedRegion[] = [];
  for (const region of sorted) {
    if (region.to <= region.from) continue;
    const last = merged[merged.length - 1];
    if (last && region.from < last.to) {
      if (region.to > last.to) last.to = region.to;
      last.inline = last.inline && region.inline;
    } else {
      merged.push({ ...region });
    }
  }
  return merged;
}

/** Whether `position` falls inside one of the ordered, disjoint `regions` (binary search). */
export function insideRegions(regions: readonly ProtectedRegion[], position: number): boolean {
  let low = 0;
  let high = regions.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const region = regions[mid];
    if (!region) return false;
    if (position < region.from) high = mid - 1;
    else if (position >= region.to) low = mid + 1;
    else return true;
  }
  return false;
}
