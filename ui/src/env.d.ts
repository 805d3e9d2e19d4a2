// Types for what Vite resolves at build time (e.g. importing the app icon PNG as a URL).
/// <reference types="vite/client" />
