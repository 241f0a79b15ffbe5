//! Why an export fails: the output cannot be written.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// An export that could not finish. A game that cannot be read or replayed is not an error of
/// the export: it is listed in the summary (see [`crate::ExportSummary`]).
#[derive(Debug, Error)]
pub enum TablesError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: cannot write Parquet: {source}", path.display())]
    Parquet {
        path: PathBuf,
        source: parquet::errors::ParquetError,
    },
    #[error("{}: the output folder is not empty; give a new or empty folder, so that no old part files mix with the new ones", path.display())]
    NotEmpty { path: PathBuf },
    /// A bug: a step that cannot fail on valid rows did (joining the batches of one schema,
    /// a worker that panicked outside a game's replay).
    #[error("internal error: {0}")]
    Internal(String),
}

impl TablesError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> TablesError {
        TablesError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn parquet(path: &Path, source: parquet::errors::ParquetError) -> TablesError {
        TablesError::Parquet {
            path: path.to_path_buf(),
            source,
        }
    }
}
