//! What "private to its owner" means on Windows, decided on a security descriptor written as SDDL
//! (the Security Descriptor Definition Language Windows prints and parses). A pure module: the
//! Windows calls that read and write descriptors live in `private_files::windows`; the decisions
//! are here, so they are unit-tested on every OS.
//!
//! Windows has no mode bits: who may open a file is its DACL, a list of access entries. 0700/0600
//! become "only the person running us (and the machine's own accounts) are allowed in":
//! * trusted: our own user SID, `SYSTEM` (`SY`, S-1-5-18) and the local Administrators group (`BA`,
//!   S-1-5-32-544); those can read every file on the machine anyway, and a default `%APPDATA%`
//!   folder grants exactly these three. `CREATOR OWNER`/`OWNER RIGHTS` (`CO`, `OW`) stand for the
//!   owner, who is checked separately;
//! * an allow entry for anyone else (Everyone, Users, Authenticated Users, another person), or no
//!   DACL at all (everyone may do anything), makes the object open: it is repaired with
//!   [`owner_only_sddl`];
//! * an owner that is not trusted means someone else controls the folder: refused, with the fix.

/// SIDs that may hold a private object besides our own user: `SYSTEM` and the Administrators group.
const TRUSTED_ALIASES: [(&str, &str); 2] = [("SY", "S-1-5-18"), ("BA", "S-1-5-32-544")];
/// Stand-ins for the object's owner (checked on its own).
const OWNER_ALIASES: [(&str, &str); 2] = [("CO", "S-1-3-0"), ("OW", "S-1-3-4")];

/// What a descriptor says about a private file or folder of the user `me` (a SID string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AclVerdict {
    /// Only trusted accounts are let in.
    Private,
    /// Others are let in (their SIDs or SDDL aliases, `"(no DACL)"` when there is no list at all):
    /// repair with [`owner_only_sddl`].
    Open {
        /// Who else is allowed in.
        others: Vec<String>,
    },
    /// Someone else owns it (their SID): refuse.
    ForeignOwner {
        /// The owner's SID or alias.
        owner: String,
    },
}

/// Judges the SDDL text of an object's owner and DACL (`O:…D:…`, as
/// `ConvertSecurityDescriptorToStringSecurityDescriptorW` prints it) for the user `me`.
pub fn judge(sddl: &str, me: &str) -> AclVerdict {
    let parts = Sddl::parse(sddl);
    if let Some(owner) = parts.owner
        && !is_trusted(owner, me)
    {
        return AclVerdict::ForeignOwner { owner: owner.to_owned() };
    }
    let Some(dacl) = parts.dacl else {
        return AclVerdict::Open { others: vec!["(no DACL)".to_owned()] };
    };
    if dacl.starts_with("NO_ACCESS_CONTROL") {
        return AclVerdict::Open { others: vec!["(no DACL)".to_owned()] };
    }
    let mut others: Vec<String> = aces(dacl)
        .filter(|ace| ace.allows())
        .map(|ace| ace.sid)
        .filter(|sid| !is_trusted(sid, me) && !is_owner_alias(sid))
        .map(str::to_owned)
        .collect();
    others.dedup();
    if others.is_empty() { AclVerdict::Private } else { AclVerdict::Open { others } }
}

/// The DACL that makes an object private to `me`: protected from inheritance (`P`), one entry
/// granting `me` full access (`FA`); a folder's entry is inherited by what is created in it
/// (`OI` objects, `CI` containers), so new files are private from their first byte.
pub fn owner_only_sddl(me: &str, folder: bool) -> String {
    let inherit = if folder { "OICI" } else { "" };
    format!("D:P(A;{inherit};FA;;;{me})")
}

/// The same, for a named pipe: owned by `me` (said explicitly: Wine would otherwise make the
/// token's primary group the owner), who may read, write and connect (`GA`, generic all); no one
/// else may open it.
pub fn owner_only_pipe_sddl(me: &str) -> String {
    format!("O:{me}D:P(A;;GA;;;{me})")
}

/// The fix a person runs (in `cmd` or PowerShell) to take a folder back and make it private.
pub fn repair_command(folder: &str) -> String {
    format!(
        "takeown /f \"{folder}\" /r /d y && icacls \"{folder}\" /inheritance:r /grant:r \"%USERNAME%\":(OI)(CI)F /t"
    )
}

fn is_trusted(sid: &str, me: &str) -> bool {
    sid.eq_ignore_ascii_case(me)
        || TRUSTED_ALIASES.iter().any(|(alias, full)| sid == *alias || sid.eq_ignore_ascii_case(full))
}

fn is_owner_alias(sid: &str) -> bool {
    OWNER_ALIASES.iter().any(|(alias, full)| sid == *alias || sid.eq_ignore_ascii_case(full))
}

/// The owner and DACL parts of an SDDL string (`O:owner G:group D:dacl S:sacl`, in any order).
#[derive(Debug, Default)]
struct Sddl<'a> {
    owner: Option<&'a str>,
    dacl: Option<&'a str>,
}

impl<'a> Sddl<'a> {
    fn parse(text: &'a str) -> Sddl<'a> {
        let mut parts = Sddl::default();
        let mut rest = text.trim();
        while let Some((tag, after)) = split_tag(rest) {
            let end = next_tag(after);
            let value = &after[..end];
            match tag {
                'O' => parts.owner = Some(value),
                'D' => parts.dacl = Some(value),
                _ => {}
            }
            rest = &after[end..];
        }
        parts
    }
}

/// `X:` at the start of `text`, with what follows.
fn split_tag(text: &str) -> Option<(char, &str)> {
    let mut chars = text.chars();
    let tag = chars.next()?;
    let rest = chars.as_str().strip_prefix(':')?;
    matches!(tag, 'O' | 'G' | 'D' | 'S').then_some((tag, rest))
}

/// Where the next `O:`/`G:`/`D:`/`S:` starts (outside parentheses), or the end.
fn next_tag(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b'O' | b'G' | b'D' | b'S' if depth == 0 && bytes.get(i + 1) == Some(&b':') && i > 0 => {
                // A SID inside a value never has `X:` outside parentheses; flags (`P`, `AI`…) are
                // letters without a colon.
                return i;
            }
            _ => {}
        }
    }
    text.len()
}

/// One access entry: `(type;flags;rights;object;inherited object;sid)`.
#[derive(Debug)]
struct Ace<'a> {
    kind: &'a str,
    flags: &'a str,
    sid: &'a str,
}

impl Ace<'_> {
    /// Grants access to this object (not only to what is created in it: inherit-only entries, `IO`,
    /// do not open the object itself).
    fn allows(&self) -> bool {
        let allow = matches!(self.kind, "A" | "OA" | "XA" | "ZA");
        let inherit_only = self.flags.as_bytes().chunks(2).any(|flag| flag == b"IO");
        allow && !inherit_only
    }
}

fn aces(dacl: &str) -> impl Iterator<Item = Ace<'_>> {
    dacl.split('(').skip(1).filter_map(|chunk| {
        let body = chunk.split(')').next()?;
        let fields: Vec<&str> = body.split(';').collect();
        Some(Ace { kind: fields.first()?, flags: fields.get(1)?, sid: fields.get(5)?.trim() })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "S-1-5-21-1004336348-1177238915-682003330-1001";

    #[test]
    fn a_default_appdata_folder_granting_system_administrators_and_us_is_private() {
        // What `icacls`/`Get-Acl -Path $env:APPDATA\x | % Sddl` shows for a new folder there.
        let sddl = format!(
            "O:{ME}G:S-1-5-21-1004336348-1177238915-682003330-513D:AI(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)(A;OICIID;FA;;;{ME})"
        );
        assert_eq!(judge(&sddl, ME), AclVerdict::Private);
    }

    #[test]
    fn the_owner_only_dacl_we_write_reads_back_as_private() {
        let sddl = format!("O:{ME}{}", owner_only_sddl(ME, true));
        assert_eq!(judge(&sddl, ME), AclVerdict::Private);
        assert_eq!(owner_only_sddl(ME, false), format!("D:P(A;;FA;;;{ME})"));
        assert_eq!(owner_only_pipe_sddl(ME), format!("O:{ME}D:P(A;;GA;;;{ME})"));
        assert_eq!(judge(&owner_only_pipe_sddl(ME), ME), AclVerdict::Private);
    }

    #[test]
    fn everyone_users_or_another_person_let_in_make_it_open() {
        let other = "S-1-5-21-1004336348-1177238915-682003330-1002";
        let sddl = format!("O:{ME}D:(A;OICI;FA;;;{ME})(A;;0x1200a9;;;WD)(A;OICIID;FR;;;BU)(A;;FA;;;{other})");
        assert_eq!(
            judge(&sddl, ME),
            AclVerdict::Open { others: vec!["WD".into(), "BU".into(), other.into()] }
        );
    }

    #[test]
    fn no_dacl_at_all_is_open_to_everyone() {
        assert_eq!(judge(&format!("O:{ME}"), ME), AclVerdict::Open { others: vec!["(no DACL)".into()] });
        assert_eq!(
            judge(&format!("O:{ME}D:NO_ACCESS_CONTROL"), ME),
            AclVerdict::Open { others: vec!["(no DACL)".into()] }
        );
    }

    #[test]
    fn deny_entries_and_inherit_only_entries_do_not_open_the_object() {
        let sddl = format!("O:{ME}D:P(A;OICI;FA;;;{ME})(D;;FA;;;WD)(A;OICIIO;FA;;;CO)(A;OICIIO;GA;;;BU)");
        assert_eq!(judge(&sddl, ME), AclVerdict::Private);
    }

    #[test]
    fn a_folder_owned_by_someone_else_is_refused_even_when_its_dacl_is_private() {
        let other = "S-1-5-21-1-2-3-1005";
        let sddl = format!("O:{other}D:P(A;OICI;FA;;;{ME})");
        assert_eq!(judge(&sddl, ME), AclVerdict::ForeignOwner { owner: other.into() });
        // Administrators own what an elevated process of ours created: that is not a stranger.
        assert_eq!(judge(&format!("O:BAD:P(A;OICI;FA;;;{ME})"), ME), AclVerdict::Private);
    }

    #[test]
    fn sid_case_and_part_order_do_not_matter() {
        let sddl = format!("D:P(A;;FA;;;{})O:{}", ME.to_lowercase(), ME.to_lowercase());
        assert_eq!(judge(&sddl, ME), AclVerdict::Private);
    }

    #[test]
    fn the_repair_command_quotes_the_folder() {
        let fix = repair_command(r"C:\Users\Ann Lee\AppData\Roaming\dev.garminmcp.desktop");
        assert!(
            fix.contains(r#"takeown /f "C:\Users\Ann Lee\AppData\Roaming\dev.garminmcp.desktop""#),
            "{fix}"
        );
        assert!(fix.contains("/inheritance:r"), "{fix}");
    }
}
