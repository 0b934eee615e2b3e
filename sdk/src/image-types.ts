/**
 * The image files the editor shows and exports (ADR 74, 75), by extension (lower case, with
 * the dot), with the type each is served as. Never HTML, never script: an SVG is only ever
 * shown as an image.
 */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
};

/** The largest image the editor serves, saves from a paste, or inlines into an export. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** The type of an image file by its name's extension, or null when it is no image of the list. */
export function imageTypeOf(fileName: string): string | null {
  const dot = fileName.lastIndexOf('.');
  const slash = Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\'));
  if (dot <= slash + 1) return null;
  return IMAGE_TYPES[fileName.slice(dot).toLowerCase()] ?? null;
}
