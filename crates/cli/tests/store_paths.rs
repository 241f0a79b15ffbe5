//! Where the store cannot be (issue 21 item 8): a store path that is a file, a store on a
//! read-only file system, a full disk. Each gets a clear sentence, and the verbs that only read
//! (`games`, `export`, `verify`) work on a read-only store by reading a copy of it.
//!
//! The read-only and full-disk tests mount a tmpfs (root in a container or CI runner); where
//! mounting is not allowed they say so on stderr and check nothing.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{carc_with_store, logs_dir, stderr, stdout};

const GAME: &str = "short-game-rulings";

fn sample() -> PathBuf {
    logs_dir().join(format!("{GAME}.jsonl"))
}

#[test]
fn a_store_path_that_is_a_file_says_so() {
    // Given a file where the store should be, and a path below a file
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    fs::write(&file, "not a store").unwrap();
    for verb in [&["games"][..], &["import", &sample().to_string_lossy()]] {
        // When a store verb runs on it
        let o = carc_with_store(&file, verb);
        // Then it says the path is a file, once, with exit 2
        assert_eq!(o.status.code(), Some(2), "{verb:?}");
        let err = stderr(&o);
        assert!(
            err.contains("is a file, not a store folder") && !err.contains("os error 17"),
            "{verb:?}: {err}"
        );
    }
    let o = carc_with_store(&file.join("store"), &["games"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("notes.txt is a file, not a folder, so the store cannot be there"),
        "{}",
        stderr(&o)
    );
    // And the file is untouched
    assert_eq!(fs::read_to_string(&file).unwrap(), "not a store");
}

/// A tmpfs mounted at a fresh folder, unmounted on drop; `None` where mounting is not allowed.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, options: &str) -> Option<Tmpfs> {
        fs::create_dir_all(at).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(at)
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("skipped: cannot mount a tmpfs here (not root?)");
        }
        ok.then(|| Tmpfs(at.to_path_buf()))
    }

    fn remount_read_only(&self) {
        let o = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

#[test]
fn a_read_only_store_is_listed_exported_and_verified_and_writes_say_why_not() {
    // Given a store with the sample game on a file system then made read-only
    let dir = tempfile::tempdir().unwrap();
    let Some(mnt) = Tmpfs::mount(&dir.path().join("mnt"), "size=64m") else {
        return;
    };
    let store = mnt.0.join("store");
    let o = carc_with_store(&store, &["import", &sample().to_string_lossy()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    mnt.remount_read_only();
    // When it is listed, exported and verified
    let o = carc_with_store(&store, &["games"]);
    // Then each works, saying that it reads a copy
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(&format!("{GAME}: Ada, Brandt")),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o)
            .contains("is on a read-only file system: reading a copy of it in a temporary folder"),
        "{}",
        stderr(&o)
    );
    let o = carc_with_store(&store, &["export", GAME, "--game-only"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, fs::read(sample()).unwrap());
    let o = carc_with_store(&store, &["verify"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // And a verb that writes says the file system is read-only, with exit 2
    let o = carc_with_store(&store, &["record", "new", "t", "--players", "Ada,Brandt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is on a read-only file system: this verb writes to the store"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_full_disk_says_so() {
    // Given a store on a small file system, then filled up
    let dir = tempfile::tempdir().unwrap();
    let Some(mnt) = Tmpfs::mount(&dir.path().join("mnt"), "size=4m") else {
        return;
    };
    let store = mnt.0.join("store");
    let o = carc_with_store(&store, &["import", &sample().to_string_lossy()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = Command::new("dd")
        .args(["if=/dev/zero", "bs=64k"])
        .arg(format!("of={}", mnt.0.join("filler").display()))
        .output();
    // When a game is imported
    let o = carc_with_store(
        &store,
        &[
            "import",
            &logs_dir().join("sim-3p-greedy.jsonl").to_string_lossy(),
        ],
    );
    // Then it fails saying the disk is full
    assert_ne!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stderr(&o).contains("the disk is full"), "{}", stderr(&o));
    // And the games already there are still listed
    let o = carc_with_store(&store, &["games"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(GAME), "{}", stdout(&o));
}
