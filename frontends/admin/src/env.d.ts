// Stylesheets imported with `?raw` arrive as their text (webpack asset/source, Vite raw).
declare module '*.css?raw' {
  const css: string;
  export default css;
}
