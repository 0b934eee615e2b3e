import type { UiPlugin } from '../../../protocol/panel-protocol.js';
import { element } from '../element.js';
import { askChoice, paragraph } from './choice-dialog.js';

/** What goes with a plugin, each as its manifest contributes it, in the words a person reads. */
const REMOVES: readonly { key: 'tools' | 'kinds' | 'panels' | 'commands'; label: string }[] = [
  { key: 'tools', label: 'Tools AI clients can call' },
  { key: 'kinds', label: 'Documents it opens' },
  { key: 'panels', label: 'Panels' },
  { key: 'commands', label: 'Commands (vmark …)' },
];

/**
 * Asks before a plugin is turned off, naming what goes with it: its tools,
 * the kinds of document it opens, its panels, commands and settings, and the
 * plugins that need it (they stop too). Keeping it is the default; nothing is
 * lost either way, since turning it on again brings everything back.
 */
export async function confirmDisable(container: HTMLElement, plugin: UiPlugin): Promise<boolean> {
  const body: Node[] = [paragraph('While it is off, vmark goes without:')];
  for (const { key, label } of REMOVES) {
    if (plugin[key].length === 0) continue;
    const section = element('div', 'plugin-removes');
    section.dataset.removes = key;
    const chips = element('div', 'chips');
    chips.append(...plugin[key].map((name) => element('code', 'chip', name)));
    section.append(element('div', 'approval-label', label), chips);
    body.push(section);
  }
  if (plugin.settings.length > 0) {
    const settings = element('div', 'plugin-removes');
    settings.dataset.removes = 'settings';
    const count = plugin.settings.length === 1 ? '1 setting' : `${plugin.settings.length} settings`;
    settings.append(
      element('div', 'approval-label', 'Settings'),
      element('p', 'choice-text', `${count}, which leave the settings panel; their values are kept.`),
    );
    body.push(settings);
  }
  if (plugin.dependents.length > 0) {
    const dependents = element('div', 'plugin-removes');
    dependents.dataset.removes = 'dependents';
    const chips = element('div', 'chips');
    chips.append(...plugin.dependents.map((name) => element('code', 'chip', name)));
    dependents.append(element('div', 'approval-label', 'Plugins that need it, which stop too'), chips);
    body.push(dependents);
  }
  if (body.length === 1) body.splice(0, 1, paragraph('It contributes nothing else to vmark.'));
  if (plugin.kinds.length > 0) {
    body.push(paragraph('Files of those kinds can no longer be opened until it is on again.'));
  }
  const answer = await askChoice(container, {
    className: 'disable-plugin-dialog',
    title: `Turn off ${plugin.name}?`,
    body,
    choices: [
      { id: 'cancel', label: 'Keep it on' },
      { id: 'disable', label: 'Turn off', kind: 'danger' },
    ],
    focus: 'cancel',
    cancel: 'cancel',
  });
  return answer === 'disable';
}
