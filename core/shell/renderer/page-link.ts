import type { PageOpen, PageTab } from '@vmark/sdk';

export type { PagePlace, PageTab } from '@vmark/sdk';

/**
 * What a plugin's page module (a panel, a text view) may ask of its window (host API 1.11.0):
 * open a file at a place, and — for a panel — which tab the window shows.
 */
export interface PageLink extends PageOpen {
  activeTab(): PageTab | null;
  onActiveTab(listener: (tab: PageTab | null) => void): () => void;
}
