//! Reading a game file's bytes from untrusted paths: only regular files, and at most
//! [`MAX_GAME_FILE`] bytes. A path may name a device (`/dev/zero` is endless), a pipe (a read
//! blocks until a writer comes, perhaps never) or a huge file; each gets a clear refusal
//! instead of a hang or memory exhaustion. The check is made on the path's metadata before
//! anything is opened, so a program can check every input before it takes a lock on a store.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The most bytes carc reads as one game file: 64 MiB. A finished 6-player game with every
/// expansion, its annotations and variations is well under 1 MiB, a Board Game Arena replay
/// under 1 MiB; the cap is there so that a wrong path cannot exhaust the machine.
pub const MAX_GAME_FILE: u64 = 64 * 1024 * 1024;

/// Why a game file's bytes could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {}", self.path().display(), self.reason())]
pub enum ReadFileError {
    /// The operating system refused (missing, no permission, …). The error is said in this
    /// error's own message, so it is no `source`: a chain of causes (anyhow's `{:#}`) would
    /// say it twice.
    Io { path: PathBuf, error: io::Error },
    /// A folder, device, pipe or socket.
    NotAFile { path: PathBuf, kind: &'static str },
    /// Over [`MAX_GAME_FILE`].
    TooLarge { path: PathBuf },
}

impl ReadFileError {
    /// The path that could not be read.
    pub fn path(&self) -> &Path {
        match self {
            ReadFileError::Io { path, .. }
            | ReadFileError::NotAFile { path, .. }
            | ReadFileError::TooLarge { path } => path,
        }
    }

    /// Why, without the path (for messages that name the file already).
    pub fn reason(&self) -> String {
        match self {
            ReadFileError::Io { error, .. } => error.to_string(),
            ReadFileError::NotAFile { kind, .. } => {
                format!("it is {kind}, not a regular file (carc reads regular files only)")
            }
            ReadFileError::TooLarge { .. } => format!(
                "it is larger than {} MiB, the most carc reads as one input file",
                MAX_GAME_FILE / (1024 * 1024)
            ),
        }
    }
}

/// What kind of thing a path that is not a regular file is, in words.
fn kind_of(file_type: fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a pipe (FIFO)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
    }
    "not a regular file"
}

/// Checks that `path` is a regular file of at most [`MAX_GAME_FILE`] bytes, without opening
/// it (links are followed).
pub fn check_game_path(path: &Path) -> Result<(), ReadFileError> {
    checked_len(path).map(|_| ())
}

/// [`check_game_path`], giving the file's length as its metadata tells it.
fn checked_len(path: &Path) -> Result<u64, ReadFileError> {
    let meta = fs::metadata(path).map_err(|error| ReadFileError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    len_of_regular(path, &meta)
}

/// The length of the regular file `meta` describes, else why `path` is refused.
fn len_of_regular(path: &Path, meta: &fs::Metadata) -> Result<u64, ReadFileError> {
    if !meta.is_file() {
        return Err(ReadFileError::NotAFile {
            path: path.to_path_buf(),
            kind: kind_of(meta.file_type()),
        });
    }
    if meta.len() > MAX_GAME_FILE {
        return Err(ReadFileError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok(meta.len())
}

/// Any input file's bytes (a game, a tile set, a map board, a moves file): the same checks
/// and cap as a game file's, so `/dev/zero` or a FIFO given as `--tiles` is refused at once
/// instead of read until memory runs out or waited on for ever.
pub fn read_input_bytes(path: &Path) -> Result<Vec<u8>, ReadFileError> {
    read_game_bytes(path)
}

/// A game file's bytes: [`check_game_path`], then at most [`MAX_GAME_FILE`] bytes read (a
/// file that grew past the cap since the check is refused too).
pub fn read_game_bytes(path: &Path) -> Result<Vec<u8>, ReadFileError> {
    checked_len(path)?;
    let io_error = |error| ReadFileError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = open_no_wait(path).map_err(io_error)?;
    // The path may have been swapped since the check: what was opened is checked again.
    let len = len_of_regular(path, &file.metadata().map_err(io_error)?)?;
    // Room for the whole file and one byte more, so that a file of the length its metadata
    // gave takes one read and one read of nothing: `take` hides the file's size from
    // `read_to_end`, which would otherwise start at 32 bytes and grow (11 reads for a 16 KB
    // game, each a system call, on every worker of the bulk verbs).
    let mut bytes = Vec::with_capacity(len as usize + 1);
    file.take(MAX_GAME_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > MAX_GAME_FILE {
        return Err(ReadFileError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    Ok(bytes)
}

/// Opens `path` for reading without waiting: on Unix with `O_NONBLOCK`, so that a FIFO put
/// there after the check opens at once (and is then refused) instead of blocking until a
/// writer comes. A regular file reads as usual with it.
fn open_no_wait(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// A file kept beside a game (its annotations, its variations), read as [`read_input_bytes`]
/// does; `None` when there is none.
pub fn read_side_file(path: &Path) -> Result<Option<Vec<u8>>, ReadFileError> {
    match read_input_bytes(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadFileError::Io { error, .. }) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_and_anything_else_is_refused_saying_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("g.jsonl");
        fs::write(&file, b"hello\n").unwrap();
        assert_eq!(read_game_bytes(&file).unwrap(), b"hello\n");
        // A folder
        let e = read_game_bytes(dir.path()).unwrap_err().to_string();
        assert!(e.contains("it is a folder, not a regular file"), "{e}");
        // A missing file
        let e = read_game_bytes(&dir.path().join("none")).unwrap_err();
        assert!(matches!(e, ReadFileError::Io { .. }), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_device_is_refused_without_reading_it() {
        // Reading /dev/zero would never end; it is refused from its metadata.
        let e = read_game_bytes(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/dev/zero: it is a device"), "{e}");
    }

    #[test]
    fn a_file_over_the_cap_is_refused_naming_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.jsonl");
        // A sparse file: its length is over the cap without writing 64 MiB.
        fs::File::create(&big)
            .unwrap()
            .set_len(MAX_GAME_FILE + 1)
            .unwrap();
        let e = read_game_bytes(&big).unwrap_err().to_string();
        assert!(e.contains("larger than 64 MiB"), "{e}");
        // Exactly at the cap is still read
        let edge = dir.path().join("edge.jsonl");
        fs::File::create(&edge)
            .unwrap()
            .set_len(MAX_GAME_FILE)
            .unwrap();
        assert!(check_game_path(&edge).is_ok());
    }
}
