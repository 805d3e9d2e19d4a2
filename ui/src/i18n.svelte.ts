// The window's two languages, English and Chinese: follows the system language until one is chosen
// in the header (the choice is remembered in the app's preferences: preferences.svelte.ts). `t` reads reactive state, so everything
// rendered with it changes language at once.
import { en, type MessageKey } from "./locales/en";
import { zh } from "./locales/zh";

export type { MessageKey };

export const LOCALES = ["en", "zh"] as const;

/** A language the window speaks. */
export type Locale = (typeof LOCALES)[number];

/** Each language's own name, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", zh: "中文" };

const DICTIONARIES: Record<Locale, Record<MessageKey, string>> = { en, zh };

/** The language for a BCP 47 tag such as `zh-CN` or `en-US`: Chinese for any `zh`, else English. */
export function localeFor(tag: string | undefined): Locale {
  return tag?.toLowerCase().startsWith("zh") ? "zh" : "en";
}

const current = $state({ locale: localeFor(navigator.language) });
document.documentElement.lang = current.locale === "zh" ? "zh-CN" : "en";

/** The language in use. */
export function locale(): Locale {
  return current.locale;
}

/** The BCP 47 tag for dates and numbers in the language in use. */
export function intlLocale(): string {
  return current.locale === "zh" ? "zh-CN" : "en";
}

/** Switches the language now (remembering it is the preferences' part: `chooseLanguage`). */
export function setLocale(next: Locale): void {
  current.locale = next;
  document.documentElement.lang = intlLocale();
}

/** The remembered language, or the system's when none was chosen. */
export function applyLocale(saved: Locale | null): void {
  setLocale(saved ?? localeFor(navigator.language));
}

/** The message `key` in the language in use, with `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const template = DICTIONARIES[current.locale][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
