//! The Windows calls behind "only the owner": our user's SID, the user a process runs as, reading
//! and writing an object's owner-only DACL, and the security attributes of an owner-only named pipe.
//! The decisions are made in [`super::acl`] on the SDDL text; this module only moves descriptors in
//! and out of Windows.
//!
//! The one home of `unsafe` for Windows security in the workspace: no maintained crate wraps SIDs,
//! tokens and SDDL safely (the `windows-sys` bindings are raw), so each call is wrapped here in a
//! small safe function whose buffers and handles are owned by Rust values that free them on drop.
#![allow(unsafe_code, reason = "the one home of unsafe Windows security calls (see above)")]

use std::ffi::{OsStr, c_void};
use std::io;
use std::os::windows::ffi::OsStrExt as _;
use std::os::windows::io::{AsHandle, AsRawHandle as _, BorrowedHandle, FromRawHandle as _, OwnedHandle};
use std::path::Path;
use std::sync::OnceLock;

use windows_sys::Win32::Foundation::{ERROR_SUCCESS, HLOCAL, LocalFree};
use windows_sys::Win32::Security::Authorization::{
    ConvertSecurityDescriptorToStringSecurityDescriptorW, ConvertSidToStringSidW,
    ConvertStringSecurityDescriptorToSecurityDescriptorW, GetNamedSecurityInfoW, GetSecurityInfo,
    SDDL_REVISION_1, SE_FILE_OBJECT, SE_KERNEL_OBJECT, SetNamedSecurityInfoW,
};
use windows_sys::Win32::Security::{
    ACL, DACL_SECURITY_INFORMATION, GetSecurityDescriptorDacl, GetTokenInformation,
    OWNER_SECURITY_INFORMATION, PROTECTED_DACL_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR,
    SECURITY_ATTRIBUTES, TOKEN_QUERY, TOKEN_USER, TokenUser,
};
use windows_sys::Win32::System::Pipes::{GetNamedPipeClientProcessId, GetNamedPipeServerProcessId};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, OpenProcess, OpenProcessToken, PROCESS_QUERY_LIMITED_INFORMATION,
};

/// A buffer Windows allocated with `LocalAlloc`, freed on drop.
struct Local(HLOCAL);

impl Drop for Local {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: the pointer came from a Windows call documented to allocate with LocalAlloc,
            // and it is freed once, here.
            unsafe { LocalFree(self.0) };
        }
    }
}

fn wide(text: &OsStr) -> Vec<u16> {
    text.encode_wide().chain(std::iter::once(0)).collect()
}

/// A NUL-terminated UTF-16 string Windows wrote, as Rust text.
///
/// # Safety
/// `ptr` must point to a NUL-terminated UTF-16 string.
unsafe fn from_wide(ptr: *const u16) -> String {
    let mut len = 0usize;
    // SAFETY: the caller promises a NUL-terminated string; we stop at the NUL.
    while unsafe { *ptr.add(len) } != 0 {
        len += 1;
    }
    // SAFETY: `len` UTF-16 units were just read from `ptr`.
    String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A Win32 `BOOL` result as an `io::Result`.
fn check(ok: i32) -> io::Result<()> {
    if ok == 0 { Err(io::Error::last_os_error()) } else { Ok(()) }
}

/// The SID string (`S-1-5-21-…`) of the user whose token `process` runs with.
fn token_user_sid(process: BorrowedHandle<'_>) -> io::Result<String> {
    let mut token = std::ptr::null_mut();
    // SAFETY: `process` is a live handle; `token` receives a new handle we own below.
    check(unsafe { OpenProcessToken(process.as_raw_handle(), TOKEN_QUERY, &raw mut token) })?;
    // SAFETY: OpenProcessToken succeeded, so `token` is a handle we now own (closed on drop).
    let token = unsafe { OwnedHandle::from_raw_handle(token) };
    let mut needed = 0u32;
    // SAFETY: a size query with no buffer; it fails with ERROR_INSUFFICIENT_BUFFER and sets `needed`.
    unsafe {
        GetTokenInformation(token.as_raw_handle(), TokenUser, std::ptr::null_mut(), 0, &raw mut needed)
    };
    if needed == 0 {
        return Err(io::Error::last_os_error());
    }
    // u64s keep the buffer aligned for TOKEN_USER.
    let mut buffer = vec![0u64; (needed as usize).div_ceil(8)];
    // SAFETY: `buffer` holds at least `needed` bytes.
    check(unsafe {
        GetTokenInformation(
            token.as_raw_handle(),
            TokenUser,
            buffer.as_mut_ptr().cast(),
            needed,
            &raw mut needed,
        )
    })?;
    // SAFETY: GetTokenInformation(TokenUser) wrote a TOKEN_USER at the start of the aligned buffer.
    let user = unsafe { &*buffer.as_ptr().cast::<TOKEN_USER>() };
    let mut text = std::ptr::null_mut();
    // SAFETY: `user.User.Sid` points into `buffer`, alive for this call; `text` is LocalAlloc'd.
    check(unsafe { ConvertSidToStringSidW(user.User.Sid, &raw mut text) })?;
    let text = Local(text.cast());
    // SAFETY: ConvertSidToStringSidW wrote a NUL-terminated string.
    Ok(unsafe { from_wide(text.0.cast()) })
}

/// The SID of the user this process runs as (read once).
pub fn current_user_sid() -> io::Result<String> {
    static SID: OnceLock<String> = OnceLock::new();
    if let Some(sid) = SID.get() {
        return Ok(sid.clone());
    }
    // SAFETY: the pseudo-handle of the current process is always valid and needs no closing.
    let me = unsafe { BorrowedHandle::borrow_raw(GetCurrentProcess()) };
    let sid = token_user_sid(me)?;
    Ok(SID.get_or_init(|| sid).clone())
}

/// The SID of the user the process `pid` runs as.
pub fn process_user_sid(pid: u32) -> io::Result<String> {
    // SAFETY: plain call; the handle returned (if any) is owned below.
    let handle = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if handle.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: OpenProcess returned a new handle we own.
    let handle = unsafe { OwnedHandle::from_raw_handle(handle) };
    token_user_sid(handle.as_handle())
}

/// Which end of a named pipe we hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PipeEnd {
    /// We created the pipe (the app): the peer is the client.
    Server,
    /// We connected to it (a sidecar): the peer is the server.
    Client,
}

/// The process id at the other end of a connected named pipe.
pub fn pipe_peer_pid(pipe: &impl AsHandle, ours: PipeEnd) -> io::Result<u32> {
    let handle = pipe.as_handle().as_raw_handle();
    let mut pid = 0u32;
    // SAFETY: `handle` is a live pipe handle borrowed for this call.
    check(unsafe {
        match ours {
            PipeEnd::Server => GetNamedPipeClientProcessId(handle, &raw mut pid),
            PipeEnd::Client => GetNamedPipeServerProcessId(handle, &raw mut pid),
        }
    })?;
    Ok(pid)
}

/// A security descriptor Windows built from SDDL, freed on drop.
#[derive(Debug)]
pub struct Descriptor {
    sd: PSECURITY_DESCRIPTOR,
}

// SAFETY: the descriptor is an immutable heap block owned by this value alone.
unsafe impl Send for Descriptor {}
// SAFETY: as above; nothing mutates it after construction.
unsafe impl Sync for Descriptor {}

impl Descriptor {
    /// Parses `sddl`.
    pub fn from_sddl(sddl: &str) -> io::Result<Descriptor> {
        let text = wide(OsStr::new(sddl));
        let mut sd = std::ptr::null_mut();
        // SAFETY: `text` is NUL-terminated; `sd` receives a LocalAlloc'd descriptor freed on drop.
        check(unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                text.as_ptr(),
                SDDL_REVISION_1,
                &raw mut sd,
                std::ptr::null_mut(),
            )
        })?;
        Ok(Descriptor { sd })
    }

    /// Security attributes pointing at this descriptor, for `CreateNamedPipeW` and the like. The
    /// returned value borrows `self`: keep the descriptor alive while it is used.
    pub fn attributes(&self) -> SecurityAttributes<'_> {
        SecurityAttributes {
            raw: SECURITY_ATTRIBUTES {
                nLength: u32::try_from(size_of::<SECURITY_ATTRIBUTES>()).unwrap_or(u32::MAX),
                lpSecurityDescriptor: self.sd,
                bInheritHandle: 0,
            },
            _descriptor: std::marker::PhantomData,
        }
    }

    /// The descriptor's DACL.
    fn dacl(&self) -> io::Result<*mut ACL> {
        let (mut present, mut defaulted) = (0, 0);
        let mut dacl = std::ptr::null_mut();
        // SAFETY: `self.sd` is a valid descriptor; the DACL pointer points into it.
        check(unsafe {
            GetSecurityDescriptorDacl(self.sd, &raw mut present, &raw mut dacl, &raw mut defaulted)
        })?;
        if present == 0 || dacl.is_null() {
            return Err(io::Error::other("the security descriptor has no DACL"));
        }
        Ok(dacl)
    }
}

impl Drop for Descriptor {
    fn drop(&mut self) {
        drop(Local(self.sd));
    }
}

/// `SECURITY_ATTRIBUTES` borrowing a [`Descriptor`].
pub struct SecurityAttributes<'a> {
    raw: SECURITY_ATTRIBUTES,
    _descriptor: std::marker::PhantomData<&'a Descriptor>,
}

impl std::fmt::Debug for SecurityAttributes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecurityAttributes").finish_non_exhaustive()
    }
}

impl SecurityAttributes<'_> {
    /// The raw pointer Windows APIs (and tokio's `create_with_security_attributes_raw`) take.
    pub fn as_mut_ptr(&mut self) -> *mut c_void {
        (&raw mut self.raw).cast()
    }
}

/// The owner and DACL of a file or folder, as SDDL (`O:…D:…`).
pub fn path_sddl(path: &Path) -> io::Result<String> {
    let name = wide(path.as_os_str());
    let mut sd = std::ptr::null_mut();
    // SAFETY: `name` is NUL-terminated; the out pointers we do not want are null; `sd` is
    // LocalAlloc'd and freed by `Descriptor`'s drop.
    let status = unsafe {
        GetNamedSecurityInfoW(
            name.as_ptr(),
            SE_FILE_OBJECT,
            OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &raw mut sd,
        )
    };
    if status != ERROR_SUCCESS {
        return Err(io::Error::from_raw_os_error(i32::try_from(status).unwrap_or(i32::MAX)));
    }
    descriptor_sddl(&Descriptor { sd })
}

/// The owner and DACL of a kernel object we hold a handle to (a named pipe), as SDDL.
pub fn handle_sddl(object: &impl AsHandle) -> io::Result<String> {
    let mut sd = std::ptr::null_mut();
    // SAFETY: the handle is live for this call; `sd` is LocalAlloc'd and freed on drop.
    let status = unsafe {
        GetSecurityInfo(
            object.as_handle().as_raw_handle(),
            SE_KERNEL_OBJECT,
            OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &raw mut sd,
        )
    };
    if status != ERROR_SUCCESS {
        return Err(io::Error::from_raw_os_error(i32::try_from(status).unwrap_or(i32::MAX)));
    }
    descriptor_sddl(&Descriptor { sd })
}

fn descriptor_sddl(descriptor: &Descriptor) -> io::Result<String> {
    let mut text = std::ptr::null_mut();
    // SAFETY: the descriptor is valid; `text` is LocalAlloc'd and freed by `Local`.
    check(unsafe {
        ConvertSecurityDescriptorToStringSecurityDescriptorW(
            descriptor.sd,
            SDDL_REVISION_1,
            OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
            &raw mut text,
            std::ptr::null_mut(),
        )
    })?;
    let text = Local(text.cast());
    // SAFETY: the call wrote a NUL-terminated string.
    Ok(unsafe { from_wide(text.0.cast()) })
}

/// Replaces the DACL of the file or folder `path` with the one in `sddl` (`D:P(…)`), protected from
/// inheritance: the Windows `chmod 700`/`chmod 600`.
pub fn set_path_dacl(path: &Path, sddl: &str) -> io::Result<()> {
    let descriptor = Descriptor::from_sddl(sddl)?;
    let dacl = descriptor.dacl()?;
    let name = wide(path.as_os_str());
    // SAFETY: `name` is NUL-terminated and `dacl` points into `descriptor`, alive for the call.
    let status = unsafe {
        SetNamedSecurityInfoW(
            name.as_ptr(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            dacl,
            std::ptr::null(),
        )
    };
    if status == ERROR_SUCCESS {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(i32::try_from(status).unwrap_or(i32::MAX)))
    }
}

/// Creates one instance of the named pipe `name` as `options` say, protected by `descriptor` (the
/// app channel's owner-only pipe: see `app-bridge`).
pub fn create_pipe(
    options: &tokio::net::windows::named_pipe::ServerOptions,
    name: &str,
    descriptor: &Descriptor,
) -> io::Result<tokio::net::windows::named_pipe::NamedPipeServer> {
    let mut attributes = descriptor.attributes();
    // SAFETY: `attributes` is a valid SECURITY_ATTRIBUTES whose descriptor outlives the call, which
    // copies the descriptor into the new pipe.
    unsafe { options.create_with_security_attributes_raw(name, attributes.as_mut_ptr()) }
}
