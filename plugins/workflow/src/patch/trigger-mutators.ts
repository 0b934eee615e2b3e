/**
 * `trigger.setFilters`. Filters only attach to the mapping form `on: {push: {branches: …}}`;
 * turning `on: push` or `on: [push, pull_request]` into a mapping would restructure the
 * trigger, so those forms are left alone (with a warning), as the original did silently.
 */
import { mapRefOf, shapeOf } from './cst-lookup.js';
import { deleteEntry, getEntry, setEntry } from './map-entries.js';
import type { PatchOf } from './patch-schema.js';
import { requireRoot, type MutationContext } from './workflow-navigation.js';

export function triggerSetFilters(context: MutationContext, patch: PatchOf<'trigger.setFilters'>): void {
  const root = requireRoot(context);
  if (!root) return;
  const onItem = getEntry(root, 'on');
  const on = onItem ? mapRefOf(onItem) : undefined;
  if (!onItem || !on) {
    context.warn(
      onItem
        ? `on: is ${shapeOf(onItem.value)}, not a mapping of events (filters need the form on: {${patch.event}: {${patch.filter}: [...]}})`
        : 'the workflow has no on: triggers',
    );
    return;
  }
  const eventItem = getEntry(on, patch.event);
  const event = eventItem ? mapRefOf(eventItem) : undefined;
  if (!eventItem || !event) {
    context.warn(
      eventItem
        ? `on.${patch.event} is ${shapeOf(eventItem.value)}, not a mapping of filters`
        : `on: has no ${patch.event} event`,
    );
    return;
  }
  const layout = context.session.layout;
  if (patch.value.length > 0) {
    setEntry(event, patch.filter, patch.value, layout);
    return;
  }
  // An empty list removes the filter; the event stays, as `push: {}` once nothing is left.
  if (deleteEntry(event, patch.filter) === 'emptied') setEntry(on, patch.event, {}, layout);
}
