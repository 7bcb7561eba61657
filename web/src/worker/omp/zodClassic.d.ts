/** zod's classic API as one ES module's text (scripts/zod-classic-plugin.mjs). */
declare module 'virtual:zod-classic' {
  const source: string;
  export default source;
}
