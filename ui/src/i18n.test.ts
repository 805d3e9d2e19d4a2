// The window's two languages: which one a system tag gives, placeholders, switching and remembering.
import { describe, expect, it } from "vitest";
import { intlLocale, locale, localeFor, setLocale, t } from "./i18n.svelte";
import { en } from "./locales/en";
import { zh } from "./locales/zh";

describe("localeFor", () => {
  it("gives Chinese for any zh tag and English for the rest", () => {
    expect(["zh-CN", "zh-Hant-TW", "ZH", "en-US", "fr", undefined].map(localeFor)).toEqual([
      "zh",
      "zh",
      "zh",
      "en",
      "en",
      "en",
    ]);
  });
});

describe("t", () => {
  it("fills placeholders it is given and leaves the others visible", () => {
    setLocale("en");
    expect(t("confirm.zone", { zone: 3 })).toContain("3");
    expect(t("confirm.zone")).toContain("{zone}");
  });

  it("switches language at once and sets the document's language", () => {
    setLocale("zh");
    expect([locale(), intlLocale(), document.documentElement.lang]).toEqual(["zh", "zh-CN", "zh-CN"]);
    // Remembering is the preferences' part (preferences.test.ts); the window's storage is no longer used.
    expect(localStorage.getItem("garmin-mcp.locale")).toBeNull();
    expect(t("workouts.template.run")).toBe(zh["workouts.template.run"]);
    setLocale("en");
    expect(t("workouts.template.run")).toBe(en["workouts.template.run"]);
  });

  it("has every English message in Chinese, with the same placeholders", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(zh[key], key).toBeTruthy();
      expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
    }
  });
});
