// CSS files are bundled as text (esbuild's text loader) and injected into a <style>.
declare module '*.css' {
  const text: string;
  export default text;
}
