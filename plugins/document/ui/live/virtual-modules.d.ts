/** KaTeX's style sheet, its font URLs left as `__KATEX_FONTS__<file>.woff2` (rolldown.config.mjs). */
declare module 'virtual:katex-css' {
  const css: string;
  export default css;
}
