// What the window gives the UI's modules and plain Node lacks: a language, storage and the
// document's root element. (vitest.config.ts pins the time zone to UTC.)

const stored = new Map<string, string>();
const storage = {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, String(value)),
  removeItem: (key: string) => void stored.delete(key),
  clear: () => stored.clear(),
};

Object.defineProperty(globalThis, "localStorage", { value: storage, configurable: true });
Object.defineProperty(globalThis, "navigator", { value: { language: "en-US" }, configurable: true });
Object.defineProperty(globalThis, "document", {
  value: { documentElement: { lang: "" } },
  configurable: true,
});
