//! Who holds the store: a note `<store>/holder` naming the process that has sled's lock.
//!
//! sled admits one process per store; another one is told only that the lock is taken. So
//! the process that got the lock writes a small JSON note (`program`, `pid`, `since` in unix
//! seconds, `what`: "carc record shell on game g1") and removes it when its last handle
//! drops, before sled lets go of the lock (so that it never removes the next holder's note).
//! A process refused the lock reads the note to name the holder in its error. The note is
//! advice only: writing it may fail (the store then opens all the same), a crash leaves it
//! behind (the next holder overwrites it; a note whose process is gone is not believed), and
//! whatever it holds is untrusted text, so it is read capped, escaped and shortened.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The note's file name inside the store folder.
pub const HOLDER_FILE: &str = "holder";

/// The longest note read (a larger file is not a note this code wrote).
const MAX_NOTE_BYTES: u64 = 4096;

/// The longest `what` or `program` shown, in characters, before "…".
const MAX_SHOWN_CHARS: usize = 120;

/// The note of this process, removed from the store folder when dropped.
#[derive(Debug)]
pub(crate) struct HolderNote {
    path: PathBuf,
}

impl HolderNote {
    /// Writes the note for this process into `dir` (whose lock this process holds): written to
    /// a temporary name, then renamed over a stale note, so that a reader never sees half of
    /// it. A note that cannot be written is left out (`None`); the store works without it.
    pub(crate) fn write(dir: &Path, what: &str) -> Option<HolderNote> {
        let program = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        let since = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let note = serde_json::json!({
            "program": program,
            "pid": std::process::id(),
            "since": since,
            "what": what,
        });
        let path = dir.join(HOLDER_FILE);
        let tmp = dir.join(format!("{HOLDER_FILE}.tmp-{}", std::process::id()));
        // Whatever is at the temporary name (a note of a killed process with our pid, or a
        // link planted there) is removed, not written through: a link's target is untouched,
        // and the note is created anew (`O_EXCL | O_NOFOLLOW`). The rename replaces a link at
        // `holder` itself, never its target.
        let _ = fs::remove_file(&tmp);
        let written = crate::safe_file::create_new(&tmp)
            .and_then(|mut f| f.write_all(format!("{note}\n").as_bytes()))
            .and_then(|()| fs::rename(&tmp, &path));
        match written {
            Ok(()) => Some(HolderNote { path }),
            Err(_) => {
                let _ = fs::remove_file(&tmp);
                None
            }
        }
    }
}

impl Drop for HolderNote {
    fn drop(&mut self) {
        // Still ours: nobody else can take the lock before this handle's sled lets go of it.
        let _ = fs::remove_file(&self.path);
    }
}

/// Who holds the store in `dir`, as its note says, in words: "carc record shell on game g1
/// (pid 1234, since 21:40 UTC)". `None` when there is no note, it does not parse, or its
/// process is gone (a note left by a crash).
pub(crate) fn read_holder(dir: &Path) -> Option<String> {
    let mut text = String::new();
    // Not a regular file (a FIFO would block, a link to /dev/zero never end): no note.
    crate::safe_file::open_read(&dir.join(HOLDER_FILE))
        .ok()?
        .take(MAX_NOTE_BYTES + 1)
        .read_to_string(&mut text)
        .ok()?;
    if text.len() as u64 > MAX_NOTE_BYTES {
        return None;
    }
    let note: serde_json::Value = serde_json::from_str(&text).ok()?;
    let pid = u32::try_from(note.get("pid")?.as_u64()?).ok()?;
    let since = note.get("since")?.as_u64()?;
    let what = note.get("what")?.as_str()?;
    let program = note.get("program").and_then(|p| p.as_str()).unwrap_or("");
    if !process_alive(pid) {
        return None;
    }
    let who = match (what.trim(), program.trim()) {
        ("", "") => return None,
        ("", program) => shown(program),
        (what, _) => shown(what),
    };
    Some(format!("{who} (pid {pid}, since {})", utc_time(since)))
}

/// Whether process `pid` is running, where the system tells (`/proc`); elsewhere assumed.
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    proc.join(pid.to_string()).exists()
}

/// Untrusted text made safe to print: anything but printable ASCII is escaped (a control
/// character would act on the terminal, a bidi override would reorder the line), and it is
/// cut at [`MAX_SHOWN_CHARS`].
fn shown(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX_SHOWN_CHARS {
            out.push('…');
            break;
        }
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    out
}

/// Unix seconds as "21:40 UTC", with the date in front unless it is today.
fn utc_time(secs: u64) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (day, in_day) = (secs / 86_400, secs % 86_400);
    let clock = format!("{:02}:{:02} UTC", in_day / 3600, in_day % 3600 / 60);
    if day == now / 86_400 {
        clock
    } else {
        let (y, m, d) = civil_from_days(day as i64);
        format!("{y:04}-{m:02}-{d:02} {clock}")
    }
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_note_names_its_holder_and_goes_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let note = HolderNote::write(dir.path(), "carc record shell on game g1").unwrap();
        let who = read_holder(dir.path()).unwrap();
        assert!(
            who.starts_with(&format!(
                "carc record shell on game g1 (pid {}, since ",
                std::process::id()
            )),
            "{who}"
        );
        assert!(who.ends_with(" UTC)"), "{who}");
        drop(note);
        assert!(!dir.path().join(HOLDER_FILE).exists());
        assert_eq!(read_holder(dir.path()), None);
    }

    #[test]
    fn a_hostile_or_stale_note_is_escaped_capped_or_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| fs::write(dir.path().join(HOLDER_FILE), text).unwrap();
        let me = std::process::id();
        write(&format!(
            r#"{{"pid":{me},"since":0,"what":"x\u001b[2J\u202e{}"}}"#,
            "y".repeat(500)
        ));
        let who = read_holder(dir.path()).unwrap();
        assert!(who.starts_with("x\\u{1b}[2J\\u{202e}yyy"), "{who}");
        assert!(who.contains("…"), "{who}");
        assert!(
            who.ends_with(&format!("(pid {me}, since 1970-01-01 00:00 UTC)")),
            "{who}"
        );
        for bad in [
            "not json",
            r#"{"pid":"1","since":0,"what":"x"}"#,
            r#"{"since":0,"what":"x"}"#,
            &format!(r#"{{"pid":{me},"since":0,"what":"  "}}"#),
            &format!(r#"{{"pid":{me},"since":0,"what":"{}"}}"#, "z".repeat(5000)),
        ] {
            write(bad);
            assert_eq!(read_holder(dir.path()), None, "{bad}");
        }
        // A note left by a process that is gone (pid beyond Linux's largest) is not believed.
        if Path::new("/proc/self").exists() {
            write(r#"{"pid":4294967295,"since":0,"what":"carc import"}"#);
            assert_eq!(read_holder(dir.path()), None);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_fifo_or_link_is_no_note_and_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        // Given a FIFO as the note: reading it would block for ever
        let fifo = dir.path().join(HOLDER_FILE);
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        assert_eq!(read_holder(dir.path()), None);
        fs::remove_file(&fifo).unwrap();
        // Given a link to /dev/zero as the note: reading it would never end
        std::os::unix::fs::symlink("/dev/zero", &fifo).unwrap();
        assert_eq!(read_holder(dir.path()), None);
        fs::remove_file(&fifo).unwrap();

        // Given a link planted at this process's temporary note name
        let target = dir.path().join("precious");
        fs::write(&target, "keep me").unwrap();
        let tmp = dir
            .path()
            .join(format!("{HOLDER_FILE}.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&target, &tmp).unwrap();
        // When the note is written
        let note = HolderNote::write(dir.path(), "carc import").unwrap();
        // Then the link's target is untouched and the note is a file of its own
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep me");
        assert!(read_holder(dir.path())
            .unwrap()
            .starts_with("carc import (pid "));
        drop(note);
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
