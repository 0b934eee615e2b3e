/** A call that runs once, `ms` after the last of a burst of calls (files change in bursts: write, rename). */
export interface Debounced {
  (): void;
  /** Drops a pending call. */
  cancel(): void;
}

export function debounce(run: () => void, ms: number): Debounced {
  let timer: NodeJS.Timeout | undefined;
  const debounced = () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}
