import { describe, expect, it } from 'vitest';
import { ViewProviderRegistry } from '../../plugins/view-provider-registry.js';
import { UiKindViews } from './kind-view-service.js';

describe('UiKindViews', () => {
  it('lists the active views with the URL path of their module', () => {
    const views = new UiKindViews({
      activeViews: () => [
        { pluginId: 'notes', dir: '/p/notes', view: { kind: 'note', module: 'ui/dist/note-view.js' } },
      ],
      views: new ViewProviderRegistry(),
    });
    expect(views.list()).toEqual([
      { pluginId: 'notes', kind: 'note', modulePath: '/plugins/notes/ui/dist/note-view.js' },
    ]);
  });
});
