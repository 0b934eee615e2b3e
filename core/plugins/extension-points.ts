/**
 * Extension points at run time (ADR 33), after Theia's contribution provider: a plugin declares
 * a point in its manifest (`contributes.extensionPoints`) and opens it at activation with a pure
 * validator; plugins that depend on it declare their part statically (`contributes[pointId]`),
 * which the owner checks before their code runs, and hand over the code with `contribute`. A
 * contribution is undone when its plugin is deactivated, and a point closes with its owner.
 */
import type {
  ContributionDiagnostic,
  Disposable,
  ExtensionContribution,
  ExtensionPoint,
  ExtensionPointOptions,
  PeerDeclaration,
} from '@vmark/sdk';
import { type Diagnostic, error } from './diagnostics.js';
import type { PluginManifest } from './manifest.js';

/** The keys of `contributes` the host itself reads; every other key names an extension point. */
export const HOST_CONTRIBUTIONS = new Set([
  'tools',
  'kinds',
  'commands',
  'editorCommands',
  'panels',
  'views',
  'settings',
  'extensionPoints',
]);

/** The extension points a manifest contributes to, with its declaration for each. */
export function contributedPoints(manifest: PluginManifest): Array<[string, unknown]> {
  return Object.entries(manifest.contributes ?? {}).filter(([key]) => !HOST_CONTRIBUTIONS.has(key));
}

interface OpenPoint {
  readonly ownerId: string;
  readonly options: ExtensionPointOptions<unknown>;
  readonly contributions: Array<ExtensionContribution<unknown>>;
  readonly listeners: Set<() => void>;
}

export class ExtensionPointRegistry {
  readonly #points = new Map<string, OpenPoint>();

  /** Opens `id` for `ownerId`; disposing it closes the point. */
  declare<T>(ownerId: string, id: string, options: ExtensionPointOptions<T>): ExtensionPoint<T> & Disposable {
    if (this.#points.has(id)) throw new Error(`extension point "${id}" is already open`);
    const point: OpenPoint = {
      ownerId,
      options: options,
      contributions: [],
      listeners: new Set(),
    };
    this.#points.set(id, point);
    return {
      id,
      contributions: () => [...point.contributions] as Array<ExtensionContribution<T>>,
      onDidChange: (listener) => {
        point.listeners.add(listener);
        return { dispose: () => point.listeners.delete(listener) };
      },
      dispose: () => {
        if (this.#points.get(id) === point) this.#points.delete(id);
      },
    };
  }

  /**
   * The owners' verdicts on what `manifest` declares for their points, checked against `peers`
   * (point id → the declarations that take precedence). Never throws: a validator that throws
   * is reported as an error of the contribution.
   */
  check(manifest: PluginManifest, peers: (pointId: string) => readonly PeerDeclaration[]): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    for (const [pointId, declaration] of contributedPoints(manifest)) {
      const point = this.#points.get(pointId);
      if (point === undefined) {
        diagnostics.push(
          error(`contributes to extension point "${pointId}", which no running plugin opened`),
        );
        continue;
      }
      let found: readonly ContributionDiagnostic[];
      try {
        found = point.options.validate(declaration, { pluginId: manifest.id, peers: peers(pointId) });
      } catch (cause) {
        found = [{ severity: 'error', message: cause instanceof Error ? cause.message : String(cause) }];
      }
      for (const d of found) diagnostics.push({ severity: d.severity, message: `${pointId}: ${d.message}` });
    }
    return diagnostics;
  }

  /**
   * Adds `value` to `pointId` for the plugin of `manifest`, which must declare it; the owner's
   * `accept` may refuse it (throws). Disposing it removes the contribution.
   */
  contribute(manifest: PluginManifest, pointId: string, value: unknown): Disposable {
    const declaration = contributedPoints(manifest).find(([key]) => key === pointId)?.[1];
    if (declaration === undefined)
      throw new Error(
        `plugin "${manifest.id}" contributes to "${pointId}", which its manifest does not declare`,
      );
    const point = this.#points.get(pointId);
    if (point === undefined) throw new Error(`extension point "${pointId}" is not open`);
    const contribution = {
      pluginId: manifest.id,
      declaration,
      value: point.options.accept(value, declaration),
    };
    point.contributions.push(contribution);
    notify(point);
    return {
      dispose: () => {
        const at = point.contributions.indexOf(contribution);
        if (at === -1) return;
        point.contributions.splice(at, 1);
        notify(point);
      },
    };
  }
}

function notify(point: OpenPoint): void {
  for (const listener of [...point.listeners]) {
    try {
      listener();
    } catch {
      // A listener's failure is its owner's; the other listeners still hear of the change.
    }
  }
}
