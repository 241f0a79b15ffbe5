//! One table written as a folder of Parquet files: `DIR/<table>/part-00000.parquet`, … .
//!
//! Memory stays bounded whatever the number of games: each game's rows go to the encoder
//! lanes ([`crate::encode`]) as they come, whose queues are bounded; they keep only the row group
//! being encoded (at most [`WriteOptions::row_group_rows`] rows, encoded and compressed) and
//! return its columns when it is full; a file is closed and the next part begun once it holds
//! [`WriteOptions::part_rows`] rows. Row groups are cut where `parquet`'s `ArrowWriter` cuts
//! them and appended in order, so the files are those one `ArrowWriter` per part writes.

use std::collections::VecDeque;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

use crate::encode::{Encoded, Encoders, Rows};
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

/// Rows (or runs of rows, whichever comes first) handed to the lanes in one message: each
/// message costs the writer's thread a wake-up per lane, and the writer's thread is the serial
/// stage.
const OUTBOX_ROWS: usize = 4096;
const OUTBOX_RUNS: usize = 64;

/// A part file open for row groups.
struct Part {
    path: PathBuf,
    file: SerializedFileWriter<File>,
    factory: Arc<ArrowRowGroupWriterFactory>,
}

/// What the writer still has to do to the files, in order.
enum Queued {
    /// Append this row group (once every column is encoded) to the oldest open part.
    Group {
        receiver: Receiver<Encoded>,
        /// The chunks of each column, as they arrive.
        columns: Vec<Option<Vec<ArrowColumnChunk>>>,
        missing: usize,
    },
    /// Close the oldest open part: its row groups are all appended.
    ClosePart,
}

/// A table's folder being written.
pub struct TableWriter {
    table: Table,
    dir: PathBuf,
    schema: SchemaRef,
    options: WriteOptions,
    encoders: Encoders,
    /// The table's index in [`Table::ALL`], and the lanes that encode its columns.
    index: usize,
    lanes: Vec<usize>,
    /// A row group is open in the lanes.
    group_open: bool,
    /// Parts not closed yet, oldest first; the last one takes new rows when `filling`.
    open: VecDeque<Part>,
    filling: bool,
    queue: VecDeque<Queued>,
    /// Rows of the row group being filled.
    pending_rows: usize,
    /// Rows of the row group not handed to the lanes yet, and how many.
    outbox: Vec<Rows>,
    outbox_rows: usize,
    groups_in_part: usize,
    rows_in_part: u64,
    parts: u32,
    rows: u64,
}

impl TableWriter {
    /// Creates the table's folder under `out`; its row groups are encoded by `encoders`.
    pub fn create(
        out: &Path,
        table: Table,
        options: WriteOptions,
        encoders: Encoders,
    ) -> Result<Self, TablesError> {
        let dir = out.join(table.name());
        std::fs::create_dir_all(&dir).map_err(|e| TablesError::io(&dir, e))?;
        let index = Table::ALL.iter().position(|&t| t == table).unwrap_or(0);
        let schema = table.schema();
        let lanes = encoders.lanes_of(index, schema.fields().len());
        Ok(TableWriter {
            table,
            dir,
            schema,
            options,
            encoders,
            index,
            lanes,
            group_open: false,
            open: VecDeque::new(),
            filling: false,
            queue: VecDeque::new(),
            pending_rows: 0,
            outbox: Vec::new(),
            outbox_rows: 0,
            groups_in_part: 0,
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
    /// finished part (the partial files are removed when the writer is dropped unfinished).
    fn open_part(&mut self) -> Result<(), TablesError> {
        let path = partial(&self.dir.join(part_name(self.parts)));
        let file = File::create(&path).map_err(|e| TablesError::io(&path, e))?;
        // `ArrowWriter` sets the file up (the Arrow schema in the footer's metadata); its
        // lower half then takes the row groups encoded elsewhere.
        let (file, factory) =
            ArrowWriter::try_new(file, self.schema.clone(), Some(self.properties()))
                .and_then(ArrowWriter::into_serialized_writer)
                .map_err(|e| TablesError::parquet(&path, e))?;
        self.open.push_back(Part {
            path,
            file,
            factory: Arc::new(factory),
        });
        self.filling = true;
        self.parts += 1;
        self.groups_in_part = 0;
        self.rows_in_part = 0;
        Ok(())
    }

    /// Ends the row group being filled: the lanes return its columns.
    fn end_group(&mut self) {
        if !self.group_open {
            return;
        }
        self.send_outbox();
        let receiver = self.encoders.close(&self.lanes, self.index);
        let columns = self.schema.fields().len();
        self.queue.push_back(Queued::Group {
            receiver,
            columns: (0..columns).map(|_| None).collect(),
            missing: columns,
        });
        self.group_open = false;
        self.groups_in_part += 1;
        self.pending_rows = 0;
    }

    /// Hands rows `offset..offset + len` of `batch`, in the row group being filled, to the
    /// lanes (opening the group if need be).
    fn add_rows(&mut self, batch: &RecordBatch, offset: usize, len: usize) {
        if !self.group_open {
            if let Some(part) = self.open.back() {
                self.encoders.open(
                    &self.lanes,
                    self.index,
                    &self.schema,
                    &part.factory,
                    self.groups_in_part,
                );
                self.group_open = true;
            }
        }
        self.pending_rows += len;
        self.outbox_rows += len;
        self.outbox.push(Rows {
            batch: batch.clone(),
            offset,
            len,
        });
        if self.outbox_rows >= OUTBOX_ROWS || self.outbox.len() >= OUTBOX_RUNS {
            self.send_outbox();
        }
    }

    fn send_outbox(&mut self) {
        if !self.outbox.is_empty() {
            let rows = std::mem::take(&mut self.outbox);
            self.encoders.write(&self.lanes, self.index, rows);
            self.outbox_rows = 0;
        }
    }

    fn end_part(&mut self) {
        if self.filling {
            self.end_group();
            self.queue.push_back(Queued::ClosePart);
            self.filling = false;
        }
    }

    /// Appends the encoded row groups at the front of the queue and closes finished parts;
    /// `wait`: until the queue is empty, else only those ready now.
    fn append_ready(&mut self, wait: bool) -> Result<(), TablesError> {
        while let Some(next) = self.queue.front() {
            match next {
                Queued::Group { .. } => {
                    if !self.receive_group(wait)? {
                        return Ok(());
                    }
                    let Some(Queued::Group { columns, .. }) = self.queue.pop_front() else {
                        return Ok(());
                    };
                    let part = self
                        .open
                        .front_mut()
                        .ok_or_else(|| TablesError::parquet(&self.dir, lost()))?;
                    let appended = (|| {
                        let mut group = part.file.next_row_group()?;
                        for chunk in columns.into_iter().flatten().flatten() {
                            chunk.append_to_row_group(&mut group)?;
                        }
                        group.close().map(|_| ())
                    })();
                    appended.map_err(|e| TablesError::parquet(&part.path, e))?;
                }
                Queued::ClosePart => {
                    self.queue.pop_front();
                    if let Some(part) = self.open.pop_front() {
                        let path = part.path.clone();
                        let done = path.with_extension("");
                        let renamed = part
                            .file
                            .close()
                            .map_err(|e| TablesError::parquet(&path, e))
                            .and_then(|_| {
                                std::fs::rename(&path, &done).map_err(|e| TablesError::io(&done, e))
                            });
                        if renamed.is_err() {
                            let _ = std::fs::remove_file(&path);
                        }
                        renamed?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Takes the columns of the row group at the front of the queue as the lanes return them;
    /// `wait`: until all are in. Whether all are in.
    fn receive_group(&mut self, wait: bool) -> Result<bool, TablesError> {
        let path = self
            .open
            .front()
            .map_or(self.dir.clone(), |p| p.path.clone());
        let Some(Queued::Group {
            receiver,
            columns,
            missing,
        }) = self.queue.front_mut()
        else {
            return Ok(true);
        };
        while *missing > 0 {
            let (column, chunks) = if wait {
                receiver
                    .recv()
                    .map_err(|_| TablesError::parquet(&path, lost()))?
            } else {
                match receiver.try_recv() {
                    Ok(encoded) => encoded,
                    Err(TryRecvError::Empty) => return Ok(false),
                    Err(TryRecvError::Disconnected) => {
                        return Err(TablesError::parquet(&path, lost()))
                    }
                }
            };
            let chunks = chunks.map_err(|e| TablesError::parquet(&path, e))?;
            if let Some(slot @ None) = columns.get_mut(column) {
                *slot = Some(chunks);
                *missing -= 1;
            }
        }
        Ok(true)
    }

    /// Adds rows `offset..offset + len` of `batch` to the row group being filled, cut where
    /// `ArrowWriter::write` of those rows cuts them.
    fn buffer(&mut self, batch: &RecordBatch, mut offset: usize, mut len: usize) {
        let max = self.options.row_group_rows.max(1);
        while self.pending_rows + len > max {
            let room = max - self.pending_rows;
            self.add_rows(batch, offset, room);
            self.end_group();
            offset += room;
            len -= room;
        }
        self.add_rows(batch, offset, len);
        if self.pending_rows >= max {
            self.end_group();
        }
    }

    /// Appends a batch of this table's rows.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), TablesError> {
        self.write_rows(batch, 0, batch.num_rows())
    }

    /// Appends rows `offset..offset + len` of a batch of this table's rows: the files are
    /// those of [`Self::write`] of `batch.slice(offset, len)`, without slicing every column
    /// on this thread.
    pub fn write_rows(
        &mut self,
        batch: &RecordBatch,
        offset: usize,
        len: usize,
    ) -> Result<(), TablesError> {
        if len == 0 {
            return Ok(());
        }
        if !self.filling {
            self.open_part()?;
        }
        self.buffer(batch, offset, len);
        self.rows_in_part += len as u64;
        self.rows += len as u64;
        if self.rows_in_part >= self.options.part_rows {
            self.end_part();
        }
        self.append_ready(false)
    }

    /// No more rows: the row group being filled goes to the encoders now, so that the last
    /// row groups of every table are encoded at once rather than one table after the other.
    /// A table with no rows still gets one file (with its schema and no rows), so a query over
    /// `<table>/*.parquet` finds the columns.
    pub fn end_rows(&mut self) -> Result<(), TablesError> {
        if self.parts == 0 {
            self.open_part()?;
        }
        self.end_part();
        Ok(())
    }

    /// Ends the rows ([`Self::end_rows`]) and closes the last part once every row group is
    /// appended.
    pub fn finish(mut self) -> Result<TableSummary, TablesError> {
        self.end_rows()?;
        self.append_ready(true)?;
        Ok(TableSummary {
            table: self.table,
            rows: self.rows,
            files: self.parts,
        })
    }
}

impl Drop for TableWriter {
    /// The parts still open when the writer goes (an export that failed) are removed.
    fn drop(&mut self) {
        for part in self.open.drain(..) {
            let path = part.path.clone();
            drop(part);
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

/// The error of a lane that is gone (a bug: lanes outlive the writers).
fn lost() -> ParquetError {
    ParquetError::General("internal error: an encoder stopped".into())
}

/// What was written for one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSummary {
    pub table: Table,
    pub rows: u64,
    pub files: u32,
}
