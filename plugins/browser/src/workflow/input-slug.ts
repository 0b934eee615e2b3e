/*
 * The name a recorded text field's value gets as a workflow input (vmark-notes §4.3): the field's
 * label, reduced to what an `{input}` reference admits ([A-Za-z_][A-Za-z0-9_]*), never its value.
 */

export const INPUT_SLUG_MAX = 60;

/**
 * NFKC of the label with every run of other characters turned into one `_`, trimmed of `_`,
 * `field_` in front when it would start with a digit, `field_<eventNumber>` when nothing is left,
 * at most 60 characters.
 */
export function inputSlug(label: string, eventNumber: number): string {
  const core = label
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const slug = core === '' ? `field_${eventNumber}` : /^[A-Za-z_]/.test(core) ? core : `field_${core}`;
  return slug.slice(0, INPUT_SLUG_MAX).replace(/_+$/, '');
}

/** Hands out slugs unique within one recording: the second "Email" becomes `Email_2`, then `Email_3`. */
export class InputSlugs {
  private readonly taken = new Set<string>();

  take(label: string, eventNumber: number): string {
    const slug = inputSlug(label, eventNumber);
    let unique = slug;
    for (let n = 2; this.taken.has(unique); n++) {
      const suffix = `_${n}`;
      unique = slug.slice(0, INPUT_SLUG_MAX - suffix.length) + suffix;
    }
    this.taken.add(unique);
    return unique;
  }

  /** The slugs handed out, in order. */
  list(): string[] {
    return [...this.taken];
  }
}
