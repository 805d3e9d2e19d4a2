//! The newest protocol's niceties hosts show or use (#30 point 4), through rmcp's real client: the
//! server and every tool carry an icon, and every tool a top-level title (the one its annotations
//! give older hosts). `tools/list`'s day-long cache lifetime exists only in the stateless 2026-07-28
//! lifecycle (HTTP), so the Python SDK interop checks it (`tests/interop/python_client.py`).
//!
//! Run: `cargo test -p garmin-mcp --test tools niceties::`

use crate::support::Harness;

#[tokio::test]
async fn the_server_and_every_tool_carry_an_svg_icon_and_every_tool_a_title_hosts_show() {
    let h = Harness::start().await;
    let info = h.client.peer_info().expect("the server introduced itself");
    let icons = info.server_info.as_ref().and_then(|s| s.icons.as_ref()).expect("the server has icons");
    assert!(icons.iter().all(|i| i.src.starts_with("data:image/svg+xml;base64,")), "{icons:?}");
    for tool in h.client.list_all_tools().await.unwrap() {
        let title = tool.title.as_deref().unwrap_or_else(|| panic!("{} has no title", tool.name));
        let annotated = tool.annotations.as_ref().and_then(|a| a.title.as_deref());
        assert_eq!(Some(title), annotated, "{}: the two titles say the same", tool.name);
        let icon = &tool.icons.as_ref().unwrap_or_else(|| panic!("{} has no icon", tool.name))[0];
        assert_eq!(icon.mime_type.as_deref(), Some("image/svg+xml"), "{}", tool.name);
        assert!(!icon.src.starts_with("http"), "{}: an icon no host has to fetch", tool.name);
    }
}
