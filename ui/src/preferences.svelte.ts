// The app's preferences as the window uses them: loaded once at start from the Rust side (which keeps
// them in the store plugin's preferences.json), with the language applied. Before that file existed
// the window kept the language and the automatic first sync in its own localStorage: the first start
// carries those values over once, then removes them (the store is the only place from then on).
import { getPreferences, setPreferences, type Preferences, type PreferencesUpdate } from "./api";
import { applyLocale, setLocale, type Locale } from "./i18n.svelte";

/** The localStorage keys the window used before the preferences store. */
export const LEGACY_LOCALE_KEY = "garmin-mcp.locale";
export const LEGACY_AUTO_SYNC_KEY = "garmin-mcp.autoSync";

/** The preferences until the Rust side answers (the same defaults as `Preferences::default`). */
export const DEFAULT_PREFERENCES: Preferences = {
  language: null,
  lastSite: null,
  remote: { network: false, port: 8765, readOnly: true },
  autoFirstSync: true,
  window: null,
  homeView: null,
};

/** The two commands this module uses (tests pass their own). */
export interface PreferencesApi {
  getPreferences: () => Promise<Preferences>;
  setPreferences: (update: PreferencesUpdate) => Promise<Preferences>;
}

/** The part of the window's storage the migration reads and clears. */
export type LegacyStorage = Pick<Storage, "getItem" | "removeItem">;

const current = $state<{ value: Preferences }>({ value: DEFAULT_PREFERENCES });

/** The preferences as last loaded or saved. */
export function preferences(): Preferences {
  return current.value;
}

/**
 * What the window's old storage still says, as an update of `saved`; null when there is nothing to
 * carry over. A language already in the store wins (it was chosen later).
 */
export function legacyUpdate(storage: LegacyStorage, saved: Preferences): PreferencesUpdate | null {
  const update: PreferencesUpdate = {};
  const locale = storage.getItem(LEGACY_LOCALE_KEY);
  if (saved.language === null && (locale === "en" || locale === "zh")) update.language = locale;
  const auto = storage.getItem(LEGACY_AUTO_SYNC_KEY);
  if (auto === "on" || auto === "off") update.autoFirstSync = auto === "on";
  return Object.keys(update).length > 0 ? update : null;
}

/**
 * Loads the preferences (carrying the old localStorage values over once) and applies the language.
 * The old keys are removed once the store holds their values; on any failure the defaults apply and
 * the window still starts.
 */
export async function startPreferences(
  storage: LegacyStorage | null = safeLocalStorage(),
  api: PreferencesApi = { getPreferences, setPreferences },
): Promise<Preferences> {
  try {
    let loaded = await api.getPreferences();
    const update = storage ? legacyUpdate(storage, loaded) : null;
    if (update) loaded = await api.setPreferences(update);
    if (storage) {
      storage.removeItem(LEGACY_LOCALE_KEY);
      storage.removeItem(LEGACY_AUTO_SYNC_KEY);
    }
    current.value = loaded;
  } catch {
    // Not readable now: the defaults apply (the system language) and nothing is lost on disk.
    current.value = DEFAULT_PREFERENCES;
  }
  applyLocale(current.value.language);
  return current.value;
}

/** Reads the preferences again (after the Rust side changed one, e.g. the last site). */
export async function reloadPreferences(api: Pick<PreferencesApi, "getPreferences"> = { getPreferences }): Promise<void> {
  try {
    current.value = await api.getPreferences();
  } catch {
    // The copy in hand stays.
  }
}

/** Changes `update`'s fields now and saves them; a failed save leaves the change for this run only. */
export async function changePreferences(
  update: PreferencesUpdate,
  api: Pick<PreferencesApi, "setPreferences"> = { setPreferences },
): Promise<void> {
  current.value = { ...current.value, ...update };
  try {
    current.value = await api.setPreferences(update);
  } catch {
    // Not remembered; the change still applies now.
  }
}

/** The header's language switch: the window changes language at once and the choice is saved. */
export async function chooseLanguage(
  next: Locale,
  api: Pick<PreferencesApi, "setPreferences"> = { setPreferences },
): Promise<void> {
  setLocale(next);
  await changePreferences({ language: next }, api);
}

function safeLocalStorage(): LegacyStorage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}
