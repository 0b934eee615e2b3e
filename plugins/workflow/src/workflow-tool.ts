import type {
  ChangeOrigin,
  DocumentStore,
  Settings,
  TabRef,
  ToolCall,
  ToolDefinition,
  Workbench,
} from '@vmark/sdk';
import { defineAction, defineTool, DomainError, optionalId, revisionArg, staleError, z } from '@vmark/sdk';
import { PatchError } from './patch/patch-error.js';
import { validatePatches } from './patch/validate-patches.js';
import type { WorkflowValidator } from './validate/index.js';

/** Settings → Advanced: actionlint validation, on unless turned off. */
const ACTIONLINT_SETTING = 'advanced.workflowActionlint';

export interface WorkflowToolServices {
  readonly workbench: Workbench;
  readonly documents: DocumentStore;
  readonly settings: Settings;
  readonly validator: WorkflowValidator;
}

export function workflowTool(services: WorkflowToolServices): ToolDefinition {
  const { workbench, documents, settings, validator } = services;

  /** The tab's document, which must be a GitHub Actions workflow. */
  const workflowOf = (tab: TabRef) => {
    const document = documents.get(tab.documentId);
    if (document.kind !== 'yaml-workflow') {
      throw new DomainError(
        'NOT_WORKFLOW',
        'Tab is not a GitHub Actions workflow YAML; use document.write instead',
      );
    }
    return document;
  };

  return defineTool({
    name: 'workflow',
    instructions: 'Use `workflow.apply_patch` for tabs of kind "yaml-workflow".',
    title: 'VMark GitHub Actions Workflow',
    description:
      'For tabs of kind "yaml-workflow" only. apply_patch edits fields through the YAML syntax tree, so comments, ' +
      'anchors, key order and quoting outside the edited nodes stay byte for byte → {revision, warnings?}; kinds: ' +
      'workflow.set {path, value}, job.set {jobId, path, value}, step.set {jobId, stepIndex, path, value}, ' +
      'with.set / with.remove {jobId, stepIndex, key, value?}, needs.add / needs.remove {jobId, ref}, ' +
      'trigger.setFilters {event, filter, value: string[]}. A batch applies whole or not at all. ' +
      'validate runs actionlint → {ok, diagnostics: [{line, col, message, severity}], binaryAvailable, engine}.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    actions: {
      apply_patch: defineAction({
        args: {
          tabId: optionalId('tabId', 'tab'),
          patches: z.array(z.unknown(), { error: 'patches (array) is required' }),
          expected_revision: revisionArg(),
        },
        run: async ({ tabId, patches, expected_revision }, call) => {
          // The engine (yaml's CST) loads with the first patch, not with the host (ADR 88).
          const { applyPatches } = await import('./patch/apply-patches.js');
          // The original's order: the patches' shape, then the tab, then its kind, then the revision.
          const checked = invalidPatchOnError(() => validatePatches(patches, { allowInternal: false }));
          const tab = workbench.resolveTab(tabId);
          const document = workflowOf(tab);
          if (expected_revision !== undefined && expected_revision !== document.revision) {
            throw staleError(document.revision);
          }
          const result = invalidPatchOnError(() => applyPatches(document.content, checked));
          const warnings = result.warnings.length > 0 ? { warnings: result.warnings } : {};
          if (!result.changed) return { revision: document.revision, ...warnings };
          const outcome = await documents.write(document.id, result.text, {
            expectedRevision: document.revision,
            origin: originOf(call, result.description),
            save: true,
          });
          return { ...outcome, ...warnings };
        },
      }),
      validate: defineAction({
        args: { tabId: optionalId('tabId', 'tab') },
        run: async ({ tabId }) => {
          const document = workflowOf(workbench.resolveTab(tabId));
          const disabled = !settings.get(ACTIONLINT_SETTING, z.boolean(), true);
          return validator.validate(document.content, document.filePath, { disabled });
        },
      }),
    },
  });
}

/** A patch problem becomes the seed's INVALID_PATCH envelope, naming the patch by its index. */
function invalidPatchOnError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    throw new DomainError(
      'INVALID_PATCH',
      error.message,
      error.index === undefined ? {} : { index: error.index },
    );
  }
}

/** A patch is computed from the workflow alone: not made from what the client read before it. */
function originOf(call: ToolCall, description: string): ChangeOrigin {
  return {
    kind: 'mcp',
    caller: call.caller,
    tool: call.tool,
    action: call.action,
    description,
    derivedFromReads: false,
  };
}
