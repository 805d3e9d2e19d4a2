//! What several tools need to know about the signed-in account before they fan out their calls.

use garmin::Client;

use crate::tool_error::ToolError;

/// Makes sure the session knows the account's displayName and profile id (one
/// `GET …/socialProfile` when it does not), before several calls that put them in their paths run
/// concurrently.
pub(crate) async fn know_account(client: &Client) -> Result<(), ToolError> {
    if client.display_name().is_empty() || client.profile_id().is_none() {
        client.verify().await?;
    }
    Ok(())
}
