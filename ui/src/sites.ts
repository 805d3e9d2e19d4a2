// The site picker's choices, in the order shown, with the site last signed in to marked (the app's
// preferences remember it): the picker highlights that one and puts the keyboard focus on it.
import type { SiteChoice } from "./api";
import type { MessageKey } from "./i18n.svelte";

/** One choice of the site picker. */
export interface SiteOption {
  site: SiteChoice;
  name: MessageKey;
  detail: MessageKey;
  mark: string;
  /** The site signed in to last time. */
  last: boolean;
}

const CHOICES: Omit<SiteOption, "last">[] = [
  { site: "cn", name: "site.cn.name", detail: "site.cn.detail", mark: "中" },
  { site: "global", name: "site.global.name", detail: "site.global.detail", mark: "G" },
  { site: "demo", name: "site.demo.name", detail: "site.demo.detail", mark: "D" },
];

/** The picker's choices, the one signed in to last (`lastSite`, none at first) marked. */
export function siteOptions(lastSite: SiteChoice | null): SiteOption[] {
  return CHOICES.map((choice) => ({ ...choice, last: choice.site === lastSite }));
}
