// Files imported with `?raw` arrive as their text (Vite in tests).
declare module '*?raw' {
  const text: string;
  export default text;
}
