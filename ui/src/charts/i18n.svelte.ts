// The charts' words in English and Chinese (src/charts is shared by the MCP App view and the
// desktop app's Training view); the language follows the host's locale (`hostContext.locale`) in
// the MCP App and the window's language in the desktop app, English otherwise.

const en = {
  waiting: "Waiting for the chart's data…",
  noData: "This answer carries no chart data.",
  pace: "Pace",
  speed: "Speed",
  hr: "Heart rate",
  power: "Power",
  elevation: "Elevation",
  distance: "Distance",
  time: "Time",
  reset: "Reset zoom",
  zoomHint: "Drag to zoom, double-click to reset.",
  laps: "Splits",
  lap: "Lap",
  zones: "Heart-rate zones",
  zone: "Zone",
  ctl: "Fitness (CTL)",
  atl: "Fatigue (ATL)",
  tsb: "Form (TSB)",
  clickBar: "Click a bar to list its activities.",
  loading: "Loading…",
  activities: "Activities",
  points: "points shown of",
  recorded: "recorded",
  meanMax: "Best efforts",
  failed: "Could not load: ",
  running: "Running",
  cycling: "Cycling",
  swimming: "Swimming",
  walking: "Walking",
  strength: "Strength",
  other: "Other",
};

export type Key = keyof typeof en;

const zh: Record<Key, string> = {
  waiting: "正在等待图表数据…",
  noData: "此结果不含图表数据。",
  pace: "配速",
  speed: "速度",
  hr: "心率",
  power: "功率",
  elevation: "海拔",
  distance: "距离",
  time: "时间",
  reset: "重置缩放",
  zoomHint: "拖动以缩放，双击重置。",
  laps: "分段",
  lap: "分段",
  zones: "心率区间",
  zone: "区间",
  ctl: "体能 (CTL)",
  atl: "疲劳 (ATL)",
  tsb: "状态 (TSB)",
  clickBar: "点击柱形查看其中的活动。",
  loading: "加载中…",
  activities: "活动",
  points: "个点，共记录",
  recorded: "个",
  meanMax: "最佳表现",
  failed: "加载失败：",
  running: "跑步",
  cycling: "骑行",
  swimming: "游泳",
  walking: "步行",
  strength: "力量",
  other: "其他",
};

let lang = $state<"en" | "zh">("en");

/** Follows a BCP 47 locale: Chinese for `zh*`, English for anything else. */
export function setLocale(locale: string | undefined) {
  if (!locale) return;
  lang = /^zh/i.test(locale) ? "zh" : "en";
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

/** The word for `key` in the current language (English for a key with no translation). */
export function t(key: string): string {
  const table: Record<string, string> = lang === "zh" ? zh : en;
  return table[key] ?? (en as Record<string, string>)[key] ?? key;
}
