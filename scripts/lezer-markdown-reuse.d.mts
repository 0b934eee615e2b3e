export function reuseGrowsWithPosition(source: string): string;

export const lezerMarkdownReuse: {
  readonly name: string;
  transform(code: string, id: string): { code: string; map: null } | null;
};
