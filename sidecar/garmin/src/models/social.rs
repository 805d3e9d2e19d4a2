//! Connections and groups (`userprofile-service/socialProfile/connections…`, `group-service`).

use serde::{Deserialize, Serialize};

use super::de;

/// A page of connections.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Connections {
    /// The connections on this page.
    #[serde(alias = "userConnections", deserialize_with = "de::vec")]
    pub connections: Vec<Connection>,
    /// Total connections.
    #[serde(alias = "totalConnectionCount", alias = "totalCount", deserialize_with = "de::int")]
    pub total: Option<i64>,
    /// Whether more pages follow.
    pub has_more: Option<bool>,
}

/// Another athlete the user is connected to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Connection {
    /// Their profile id.
    #[serde(deserialize_with = "de::id")]
    pub profile_id: Option<u64>,
    /// Their user id.
    #[serde(alias = "userProfilePk", deserialize_with = "de::id")]
    pub user_id: Option<u64>,
    /// Their displayName.
    pub display_name: Option<String>,
    /// Their full name.
    pub full_name: Option<String>,
    /// Their location text.
    pub location: Option<String>,
    /// Their picture.
    pub profile_image_url_small: Option<String>,
    /// Connection status (2 = connected as seen).
    #[serde(deserialize_with = "de::int")]
    pub connection_status: Option<i64>,
    /// Connection request id (to end it).
    #[serde(deserialize_with = "de::id")]
    pub connection_request_id: Option<u64>,
}

/// A group.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Group {
    /// Group id.
    #[serde(alias = "id", deserialize_with = "de::id")]
    pub group_id: Option<u64>,
    /// Name.
    pub group_name: Option<String>,
    /// Description.
    pub group_description: Option<String>,
    /// Members.
    pub member_count: Option<f64>,
    /// Whether anyone can join.
    #[serde(deserialize_with = "de::flag")]
    pub open_group: Option<bool>,
    /// `PUBLIC`, `PRIVATE`…
    pub group_privacy: Option<String>,
    /// Whether the athlete is a member.
    #[serde(deserialize_with = "de::flag")]
    pub is_member: Option<bool>,
    /// Location text.
    pub location: Option<String>,
    /// Activity type keys the group is about.
    #[serde(deserialize_with = "de::vec")]
    pub activity_types: Vec<String>,
}
