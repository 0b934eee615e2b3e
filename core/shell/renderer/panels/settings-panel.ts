import type {
  UiSetting,
  UiSettings,
  UiSettingsGroup,
  UiSettingValue,
  StandingGrant,
} from '../../../protocol/panel-protocol.js';
import type { Connection } from '../connection.js';
import { ToolbarModal } from '../dialogs/toolbar-modal.js';
import { element } from '../element.js';
import type { KeybindingsSection } from './keybindings-section.js';

/**
 * The settings: every setting the enabled plugins declare, under the plugin
 * that reads it, each with what it does, its control, and its default. A
 * change is written at once (the host checks it; a refusal comes back as a
 * toast and the control shows the stored value again) and applies to the next
 * tool call. It follows changes made in other windows, and plugins turned on
 * or off (their settings come and go with them). Below them, the standing grants ("Allow on
 * this site") the host holds, grouped by site, each with a Revoke button and each site with one
 * for all of its grants; the list follows grants given or revoked anywhere (a dialog, an
 * elicitation form, `vmark approvals revoke`). Last, the keyboard shortcuts (keybindings-section.ts).
 */
export class SettingsPanel {
  readonly #modal: ToolbarModal;
  readonly #body: HTMLElement;
  readonly #where: HTMLElement;
  #settings: UiSettings | null = null;
  #grants: readonly StandingGrant[] = [];
  /** Grants (their ids) and sites (`site <origin>`) whose revocation is on its way to the host. */
  readonly #revoking = new Set<string>();
  /** Settings whose change is on its way to the host. */
  readonly #busy = new Set<string>();
  /** The control that had the focus when a write began: disabled meanwhile, it gets the focus back after. */
  #refocus: string | undefined;

  constructor(
    container: HTMLElement,
    button: HTMLButtonElement,
    private readonly connection: Connection,
    private readonly keybindings: KeybindingsSection,
    private readonly refused: (error: unknown) => void,
  ) {
    this.#modal = new ToolbarModal(container, button, {
      id: 'settings',
      className: 'settings-panel',
      title: 'Settings',
    });
    this.#where = element('p', 'settings-where');
    this.#body = element('div', 'settings-body');
    this.#modal.dialog.append(this.#where, this.#body);
    connection.onPanelMessage((message) => {
      if (message.type === 'settings.changed') this.#settings = message.settings;
      else if (message.type === 'grants.changed') this.#grants = message.grants;
      else return;
      this.#render();
    });
  }

  async open(): Promise<void> {
    try {
      // Read afresh: settings.json may have been edited by hand since.
      this.#settings = await this.connection.request('settings.list', {});
      this.#grants = (await this.connection.request('grants.list', {})).grants;
      await this.keybindings.reload();
    } catch (error) {
      this.refused(error);
      return;
    }
    this.#render();
    this.#modal.show();
  }

  /** Opens the settings at the keyboard shortcuts. */
  async openKeybindings(): Promise<void> {
    await this.open();
    this.keybindings.element.scrollIntoView({ block: 'start' });
  }

  async #write(setting: UiSetting, value: UiSettingValue | null): Promise<void> {
    this.#refocus = focusedKey();
    this.#busy.add(setting.key);
    this.#render();
    try {
      this.#settings =
        value === null
          ? await this.connection.request('settings.reset', { key: setting.key })
          : await this.connection.request('settings.set', { key: setting.key, value });
    } catch (error) {
      this.refused(error);
    } finally {
      this.#busy.delete(setting.key);
      this.#render();
      this.#refocus = undefined;
    }
  }

  async #revoke(selector: { id: string } | { origin: string }): Promise<void> {
    const key = revokingKey(selector);
    this.#revoking.add(key);
    this.#render();
    try {
      this.#grants = (await this.connection.request('grants.revoke', selector)).grants;
    } catch (error) {
      this.refused(error);
    } finally {
      this.#revoking.delete(key);
      this.#render();
    }
  }

  #render(): void {
    if (this.#settings === null) return;
    const focused = focusedKey() ?? this.#refocus;
    this.#where.replaceChildren(
      document.createTextNode('Changes apply at once. Stored in '),
      element('code', 'settings-file', this.#settings.file),
    );
    this.#body.replaceChildren(
      ...(this.#settings.groups.length > 0
        ? this.#settings.groups.map((group) => this.#group(group))
        : [element('p', 'settings-empty', 'No plugin that is turned on has settings.')]),
      this.#grantList(),
      this.keybindings.element,
    );
    this.keybindings.render();
    // Re-rendering must not take the keyboard focus away from the control just used.
    if (focused !== undefined) {
      this.#body
        .querySelector<HTMLElement>(`:is(input, select)[data-setting-key="${CSS.escape(focused)}"]`)
        ?.focus();
    }
  }

  #grantList(): HTMLElement {
    // Not a plugin's group of settings: the host's own list, titled alike.
    const section = element('section', 'settings-grants');
    section.append(
      element('h3', 'settings-grants-title', 'Standing grants'),
      element(
        'p',
        'setting-description',
        '“Allow on this site” answers: each lets one AI connection do one operation on one site ' +
          'without asking, until you revoke it or VMark stops (they are never written to disk).',
      ),
    );
    if (this.#grants.length === 0) {
      section.append(element('p', 'settings-empty', 'No standing grants.'));
      return section;
    }
    for (const [origin, grants] of bySite(this.#grants)) {
      const site = element('div', 'grant-site');
      site.dataset.origin = origin;
      const head = element('div', 'grant-site-head');
      const revokeSite = element(
        'button',
        'button button-small grant-revoke-site',
        'Revoke all on this site',
      );
      revokeSite.type = 'button';
      revokeSite.title = `Every operation on ${origin} asks again, for every connection`;
      revokeSite.disabled = this.#revoking.has(revokingKey({ origin }));
      revokeSite.addEventListener('click', () => void this.#revoke({ origin }));
      head.append(element('h4', 'settings-section grant-site-origin', origin), revokeSite);
      site.append(head, ...grants.map((grant) => this.#grantRow(grant)));
      section.append(site);
    }
    return section;
  }

  #grantRow(grant: StandingGrant): HTMLElement {
    const row = element('div', 'setting-row grant-row');
    row.dataset.grantId = grant.id;
    const text = element('div', 'setting-text');
    text.append(element('span', 'setting-title', grant.operation));
    const meta = element('div', 'setting-meta');
    meta.append(
      element('span', 'grant-holder', `held by “${grant.clientName}” (${grant.connectionId})`),
      element(
        'span',
        '',
        `given ${GIVEN_IN[grant.grantedBy]} at ${new Date(grant.grantedAt).toLocaleTimeString()}`,
      ),
      element('code', 'setting-key', grant.id),
    );
    text.append(meta);
    const controls = element('div', 'setting-controls');
    const revoke = element('button', 'button button-small grant-revoke', 'Revoke');
    revoke.type = 'button';
    revoke.title = `The next ${grant.operation} on ${grant.origin} by this connection asks again`;
    revoke.disabled = this.#revoking.has(revokingKey({ id: grant.id }));
    revoke.addEventListener('click', () => void this.#revoke({ id: grant.id }));
    controls.append(revoke);
    row.append(text, controls);
    return row;
  }

  #group(group: UiSettingsGroup): HTMLElement {
    const section = element('section', 'settings-group');
    section.dataset.groupId = group.id;
    section.append(element('h3', 'settings-group-title', group.title));
    // Within a group, settings sharing a section (`cjkFormatting.…`) sit under its name.
    const sections = new Set(group.settings.map((s) => sectionOf(s.key)));
    let current: string | undefined;
    for (const setting of group.settings) {
      const name = sectionOf(setting.key);
      if (sections.size > 1 && name !== current) {
        current = name;
        section.append(element('h4', 'settings-section', name));
      }
      section.append(this.#row(setting));
    }
    return section;
  }

  #row(setting: UiSetting): HTMLElement {
    const row = element('div', 'setting-row');
    row.dataset.settingKey = setting.key;
    const on = setting.type === 'boolean' && setting.value === true;
    row.classList.toggle('is-cautious', setting.caution !== undefined && on);
    const text = element('div', 'setting-text');
    const label = element('label', 'setting-title', setting.title);
    const id = `setting-${setting.key.replaceAll('.', '-')}`;
    label.htmlFor = id;
    text.append(label);
    if (setting.description !== undefined) {
      text.append(element('p', 'setting-description', setting.description));
    }
    if (setting.caution !== undefined) text.append(element('p', 'setting-caution', setting.caution));
    const meta = element('div', 'setting-meta');
    meta.append(
      element('code', 'setting-key', setting.key),
      element('span', '', `Default: ${shown(setting.default)}`),
    );
    if (setting.stored === 'invalid') {
      meta.append(
        element(
          'span',
          'setting-invalid',
          'settings.json holds a value that does not fit; the default applies',
        ),
      );
    }
    text.append(meta);

    const controls = element('div', 'setting-controls');
    const control = this.#control(setting, id);
    controls.append(control);
    if (setting.stored !== 'absent') {
      const reset = element('button', 'button button-small button-quiet setting-reset', 'Reset');
      reset.type = 'button';
      reset.title = `Remove it from settings.json, so the default (${shown(setting.default)}) applies`;
      reset.disabled = this.#busy.has(setting.key);
      reset.addEventListener('click', () => void this.#write(setting, null));
      controls.append(reset);
    }
    row.append(text, controls);
    return row;
  }

  #control(setting: UiSetting, id: string): HTMLElement {
    const busy = this.#busy.has(setting.key);
    if (setting.type === 'boolean') {
      const wrap = element('span', 'switch');
      const toggle = element('input', 'switch-input');
      toggle.type = 'checkbox';
      toggle.id = id;
      toggle.setAttribute('role', 'switch');
      toggle.dataset.settingKey = setting.key;
      toggle.checked = setting.value === true;
      toggle.disabled = busy;
      toggle.addEventListener('change', () => void this.#write(setting, toggle.checked));
      wrap.append(toggle, element('span', 'switch-track'));
      return wrap;
    }
    if (setting.type === 'enum') {
      const select = element('select', 'setting-input');
      select.id = id;
      select.dataset.settingKey = setting.key;
      for (const value of setting.enum ?? []) {
        const option = element('option', '', value);
        option.value = value;
        option.selected = value === setting.value;
        select.append(option);
      }
      select.disabled = busy;
      select.addEventListener('change', () => void this.#write(setting, select.value));
      return select;
    }
    const input = element('input', 'setting-input');
    input.id = id;
    input.dataset.settingKey = setting.key;
    input.disabled = busy;
    if (setting.type === 'integer') {
      input.type = 'number';
      input.step = '1';
      if (setting.minimum !== undefined) input.min = String(setting.minimum);
      if (setting.maximum !== undefined) input.max = String(setting.maximum);
      input.classList.add('setting-number');
    } else {
      input.type = 'text';
      if (setting.maxLength !== undefined) input.maxLength = setting.maxLength;
    }
    input.value = String(setting.value);
    // Written when the person is done with it (Enter or leaving the field), not on every keystroke.
    input.addEventListener('change', () => {
      if (setting.type === 'string') return void this.#write(setting, input.value);
      // An empty or non-numeric field is sent as text, so the host's refusal names the problem.
      const number = input.value.trim() === '' ? input.value : Number(input.value);
      void this.#write(setting, Number.isNaN(number) ? input.value : number);
    });
    return input;
  }
}

/** The grants by site, each site where its oldest grant is, its grants oldest first. */
function bySite(grants: readonly StandingGrant[]): Map<string, StandingGrant[]> {
  const sites = new Map<string, StandingGrant[]>();
  for (const grant of grants) sites.set(grant.origin, [...(sites.get(grant.origin) ?? []), grant]);
  return sites;
}

const revokingKey = (selector: { id: string } | { origin: string }): string =>
  'id' in selector ? selector.id : `site ${selector.origin}`;

const GIVEN_IN: Readonly<Record<StandingGrant['grantedBy'], string>> = {
  ui: 'in the editor',
  elicitation: 'in the client’s form',
  terminal: 'at a terminal',
};

function sectionOf(key: string): string {
  return key.slice(0, key.lastIndexOf('.'));
}

function shown(value: UiSettingValue): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return typeof value === 'string' ? (value === '' ? '(empty)' : value) : String(value);
}

/** The setting whose control has the keyboard focus. */
function focusedKey(): string | undefined {
  return document.activeElement instanceof HTMLElement
    ? document.activeElement.dataset.settingKey
    : undefined;
}
