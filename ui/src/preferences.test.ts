// The window's preferences: carrying the old localStorage language and first-sync choice over to the
// app's store once, the language applied at start, changes saved through the commands, and the site
// picker marking the site signed in to last.
import { beforeEach, describe, expect, it } from "vitest";
import type { Preferences, PreferencesUpdate } from "./api";
import { locale } from "./i18n.svelte";
import {
  DEFAULT_PREFERENCES,
  LEGACY_AUTO_SYNC_KEY,
  LEGACY_LOCALE_KEY,
  changePreferences,
  chooseLanguage,
  legacyUpdate,
  preferences,
  startPreferences,
  type PreferencesApi,
} from "./preferences.svelte";
import { siteOptions } from "./sites";

/** The Rust side's preferences, kept in memory: what `set_preferences` received, in order. */
function fakeApp(saved: Partial<Preferences> = {}) {
  let stored: Preferences = { ...DEFAULT_PREFERENCES, ...saved };
  const updates: PreferencesUpdate[] = [];
  const api: PreferencesApi = {
    getPreferences: async () => stored,
    setPreferences: async (update) => {
      updates.push(update);
      stored = { ...stored, ...update };
      return stored;
    },
  };
  return { api, updates, stored: () => stored };
}

/** A window storage holding `values`. */
function storageWith(values: Record<string, string>) {
  const items = new Map(Object.entries(values));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    removeItem: (key: string) => void items.delete(key),
    keys: () => [...items.keys()],
  };
}

beforeEach(async () => {
  // Each test starts from the defaults, in English.
  await startPreferences(null, fakeApp({ language: "en" }).api);
});

describe("migrating the window's old storage", () => {
  it("carries a chosen Chinese and a turned-off first sync over once, then removes them", async () => {
    const app = fakeApp();
    const storage = storageWith({ [LEGACY_LOCALE_KEY]: "zh", [LEGACY_AUTO_SYNC_KEY]: "off", other: "kept" });
    const loaded = await startPreferences(storage, app.api);
    expect(app.updates).toEqual([{ language: "zh", autoFirstSync: false }]);
    expect(loaded).toMatchObject({ language: "zh", autoFirstSync: false });
    expect(app.stored()).toMatchObject({ language: "zh", autoFirstSync: false });
    expect(locale()).toBe("zh");
    expect(storage.keys()).toEqual(["other"]);
    // The next start finds nothing to carry over.
    await startPreferences(storage, app.api);
    expect(app.updates).toHaveLength(1);
    expect(preferences().language).toBe("zh");
  });

  it("keeps a language the store already has and ignores values it does not know", () => {
    const saved = { ...DEFAULT_PREFERENCES, language: "en" as const };
    const storage = storageWith({ [LEGACY_LOCALE_KEY]: "zh", [LEGACY_AUTO_SYNC_KEY]: "on" });
    expect(legacyUpdate(storage, saved)).toEqual({ autoFirstSync: true });
    const junk = storageWith({ [LEGACY_LOCALE_KEY]: "klingon", [LEGACY_AUTO_SYNC_KEY]: "maybe" });
    expect(legacyUpdate(junk, DEFAULT_PREFERENCES)).toBeNull();
  });

  it("starts on the defaults in the system language when the preferences cannot be read", async () => {
    const failing: PreferencesApi = {
      getPreferences: () => Promise.reject(new Error("no app")),
      setPreferences: () => Promise.reject(new Error("no app")),
    };
    await startPreferences(null, fakeApp({ language: "zh", autoFirstSync: false }).api);
    expect(locale()).toBe("zh");
    const storage = storageWith({ [LEGACY_LOCALE_KEY]: "zh" });
    await startPreferences(storage, failing);
    expect(locale()).toBe("en"); // the test set-up's system language
    expect(preferences()).toEqual(DEFAULT_PREFERENCES);
    expect(storage.keys()).toEqual([LEGACY_LOCALE_KEY]); // nothing lost: carried over next time
  });
});

describe("changing preferences", () => {
  it("choosing a language switches the window at once and saves the choice in the app's store", async () => {
    const app = fakeApp();
    await chooseLanguage("zh", app.api);
    expect(locale()).toBe("zh");
    expect(app.updates).toEqual([{ language: "zh" }]);
    expect(preferences().language).toBe("zh");
  });

  it("a change that cannot be saved still applies for this run", async () => {
    await changePreferences({ autoFirstSync: false }, { setPreferences: () => Promise.reject(new Error("disk full")) });
    expect(preferences().autoFirstSync).toBe(false);
  });
});

describe("site picker", () => {
  it("marks the site signed in to last, and only it", () => {
    expect(siteOptions("global").map((o) => [o.site, o.last])).toEqual([
      ["cn", false],
      ["global", true],
      ["demo", false],
    ]);
  });

  it("marks no site before the first sign-in", () => {
    expect(siteOptions(null).some((o) => o.last)).toBe(false);
    expect(siteOptions(null).map((o) => o.site)).toEqual(["cn", "global", "demo"]);
  });
});
