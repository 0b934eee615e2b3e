export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

export const error = (message: string): Diagnostic => ({ severity: 'error', message });
export const warning = (message: string): Diagnostic => ({ severity: 'warning', message });
export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean =>
  diagnostics.some((d) => d.severity === 'error');
