//! One table written as a folder of Parquet files: `DIR/<table>/part-00000.parquet`, … .
//!
//! Memory stays bounded whatever the number of games: the Parquet writer encodes each batch
//! as it comes and keeps only the row group being filled (at most [`WriteOptions::row_group_rows`]
//! rows, encoded and compressed), flushing it to the file when full; a file is closed and the
//! next part begun once it holds [`WriteOptions::part_rows`] rows.

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use crate::error::TablesError;
use crate::schema::Table;

/// Sizes of row groups and files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Rows per row group (the unit engines read and skip by).
    pub row_group_rows: usize,
    /// Rows per file: past this a table continues in a new part file.
    pub part_rows: u64,
}

impl Default for WriteOptions {
    /// 128 Ki rows per row group, about 1 MB of `moves` compressed; 4 Mi rows per file, about
    /// 20,000 games of `moves` (the largest table), so 100,000 games give a handful of parts
    /// that engines read in parallel.
    fn default() -> WriteOptions {
        WriteOptions {
            row_group_rows: 128 * 1024,
            part_rows: 4 * 1024 * 1024,
        }
    }
}

/// The file name of part `n`.
pub fn part_name(n: u32) -> String {
    format!("part-{n:05}.parquet")
}

/// A table's folder being written.
pub struct TableWriter {
    table: Table,
    dir: PathBuf,
    schema: SchemaRef,
    options: WriteOptions,
    current: Option<(PathBuf, ArrowWriter<File>)>,
    rows_in_part: u64,
    parts: u32,
    rows: u64,
}

impl TableWriter {
    /// Creates the table's folder under `out`.
    pub fn create(out: &Path, table: Table, options: WriteOptions) -> Result<Self, TablesError> {
        let dir = out.join(table.name());
        std::fs::create_dir_all(&dir).map_err(|e| TablesError::io(&dir, e))?;
        Ok(TableWriter {
            table,
            dir,
            schema: table.schema(),
            options,
            current: None,
            rows_in_part: 0,
            parts: 0,
            rows: 0,
        })
    }

    fn properties(&self) -> WriterProperties {
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(self.options.row_group_rows))
            .build()
    }

    /// A part is written as `part-NNNNN.parquet.partial` and renamed once closed, so a full
    /// disk or a failed export leaves no file that a query over `*.parquet` takes for a
    /// finished part (the partial file is removed when the writer is dropped unfinished).
    fn open_part(&mut self) -> Result<(), TablesError> {
        let path = partial(&self.dir.join(part_name(self.parts)));
        let file = File::create(&path).map_err(|e| TablesError::io(&path, e))?;
        let writer = ArrowWriter::try_new(file, self.schema.clone(), Some(self.properties()))
            .map_err(|e| TablesError::parquet(&path, e))?;
        self.current = Some((path, writer));
        self.parts += 1;
        self.rows_in_part = 0;
        Ok(())
    }

    fn close_part(&mut self) -> Result<(), TablesError> {
        if let Some((path, writer)) = self.current.take() {
            let closed = writer.close().map_err(|e| TablesError::parquet(&path, e));
            let done = path.with_extension("");
            let renamed = closed
                .and_then(|_| std::fs::rename(&path, &done).map_err(|e| TablesError::io(&done, e)));
            if renamed.is_err() {
                let _ = std::fs::remove_file(&path);
            }
            renamed?;
        }
        Ok(())
    }

    /// Appends a batch of this table's rows.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), TablesError> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        if self.current.is_none() {
            self.open_part()?;
        }
        if let Some((path, writer)) = self.current.as_mut() {
            writer
                .write(batch)
                .map_err(|e| TablesError::parquet(path, e))?;
        }
        self.rows_in_part += batch.num_rows() as u64;
        self.rows += batch.num_rows() as u64;
        if self.rows_in_part >= self.options.part_rows {
            self.close_part()?;
        }
        Ok(())
    }

    /// Closes the last part. A table with no rows still gets one file (with its schema and no
    /// rows), so a query over `<table>/*.parquet` finds the columns.
    pub fn finish(mut self) -> Result<TableSummary, TablesError> {
        if self.parts == 0 {
            self.open_part()?;
        }
        self.close_part()?;
        Ok(TableSummary {
            table: self.table,
            rows: self.rows,
            files: self.parts,
        })
    }
}

impl Drop for TableWriter {
    /// A part still open when the writer goes (an export that failed) is removed.
    fn drop(&mut self) {
        if let Some((path, writer)) = self.current.take() {
            drop(writer);
            let _ = std::fs::remove_file(path);
        }
    }
}

/// `path` with `.partial` added.
fn partial(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// What was written for one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSummary {
    pub table: Table,
    pub rows: u64,
    pub files: u32,
}
