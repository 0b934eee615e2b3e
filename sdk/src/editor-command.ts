/*
 * Editor commands (ADR 61): what a person runs from the command palette or a key, declared in
 * the manifest's `contributes.editorCommands` (id, title, category, default key, `when`) and
 * handled by the plugin in the host, where its code and the host's services are. The editor page
 * only asks the host to run one; the person's keybindings live in `$VMARK_HOME/keybindings.json`.
 */

/** Where a person ran the command: their window and the tab it showed. */
export interface EditorCommandCall {
  /** The workbench window the command was run in. */
  readonly windowLabel: string;
  /** The tab the window showed (a document's or a provided one), or `null` with none. */
  readonly tabId: string | null;
}

/**
 * Runs an editor command. What it returns, if a string, the editor shows the person as a note;
 * what it throws is shown as the command's failure (a `DomainError`'s message as it is).
 */
export type EditorCommandHandler = (call: EditorCommandCall) => void | string | Promise<void | string>;
