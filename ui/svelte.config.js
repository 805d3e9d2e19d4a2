// Svelte compiler options for Vite and svelte-check. Svelte 5 strips TypeScript itself, so no
// preprocessor is needed; this file mainly tells both tools that the defaults are deliberate.
export default {};
