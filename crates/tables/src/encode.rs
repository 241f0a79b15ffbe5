//! The Parquet encoding on worker threads ("lanes"): the encoding (dictionaries, levels,
//! pages, compression) is most of a writer's work, so the thread that writes the files in
//! order only hands the rows to the lanes, and appends the encoded column chunks of a row
//! group to its file when the lanes return them.
//!
//! Each lane owns some columns of every table (column `c` of table `t` goes to lane
//! `(t + c) mod lanes`) and encodes them as the rows arrive, with the very column writers
//! `parquet`'s `ArrowWriter` uses, fed the same rows in the same writes (each run of [`Rows`]
//! is one `ArrowWriter::write`): the bytes of the files are those of one `ArrowWriter`, on any
//! number of lanes. Columns, not row groups, are what is spread, so that a row group is never
//! held whole in memory waiting for an encoder: the lanes' queues are bounded, and a batch
//! leaves memory once every lane has encoded its columns.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{DataType, SchemaRef};
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory,
};
use parquet::errors::ParquetError;

/// One encoded column of a row group: its index among the table's columns, and its chunks
/// (one per Parquet leaf of the column).
pub(crate) type Encoded = (usize, Result<Vec<ArrowColumnChunk>, ParquetError>);

/// Messages (each up to 4,096 rows) a lane may have waiting: with every lane holding the same
/// messages, this bounds the rows the writer has handed on and that are not encoded yet. At 64
/// the waiting Arrow arrays made most of the export's memory (about 300 MB against a live heap
/// of 40 MB); 8 keeps the lanes busy for the same CPU time (`docs/benchmarks.md`).
const LANE_QUEUE: usize = 8;

enum Message {
    /// A row group of `table` begins, in the file `factory` makes column writers for.
    Open {
        table: usize,
        schema: SchemaRef,
        factory: Arc<ArrowRowGroupWriterFactory>,
        index: usize,
    },
    /// Rows of the open row group of `table`, in order.
    Write { table: usize, rows: Arc<Vec<Rows>> },
    /// The row group of `table` is complete: each of its columns goes back on `done`.
    Close { table: usize, done: Sender<Encoded> },
}

/// Rows `offset..offset + len` of a batch. The lanes cut them out of the batch, each for its
/// own columns: a `RecordBatch::slice` on the writer's thread would allocate a new array for
/// every column there, to be freed on a lane, and the writer's thread is the serial stage.
pub(crate) struct Rows {
    pub batch: RecordBatch,
    pub offset: usize,
    pub len: usize,
}

/// A handle to the lanes of [`with_encoders`].
#[derive(Clone)]
pub struct Encoders {
    lanes: Vec<SyncSender<Message>>,
}

/// The number of Parquet leaves (column chunks) an Arrow type is written as.
fn leaves(data_type: &DataType) -> usize {
    match data_type {
        DataType::Struct(fields) => fields.iter().map(|f| leaves(f.data_type())).sum(),
        DataType::List(f)
        | DataType::LargeList(f)
        | DataType::FixedSizeList(f, _)
        | DataType::Map(f, _) => leaves(f.data_type()),
        _ => 1,
    }
}

impl Encoders {
    /// The lane that encodes column `column` of table `table`.
    fn lane(&self, table: usize, column: usize) -> usize {
        (table + column) % self.lanes.len()
    }

    /// The lanes that own at least one of the `columns` columns of table `table`.
    pub(crate) fn lanes_of(&self, table: usize, columns: usize) -> Vec<usize> {
        let mut lanes: Vec<usize> = (0..columns).map(|c| self.lane(table, c)).collect();
        lanes.sort_unstable();
        lanes.dedup();
        lanes
    }

    fn send(&self, lanes: &[usize], message: impl Fn() -> Message) {
        for &lane in lanes {
            // A lane stops only when every handle is dropped, so sending cannot fail while
            // this handle lives; a lane lost to a bug shows as a column that never returns.
            let _ = self.lanes[lane].send(message());
        }
    }

    pub(crate) fn open(
        &self,
        lanes: &[usize],
        table: usize,
        schema: &SchemaRef,
        factory: &Arc<ArrowRowGroupWriterFactory>,
        index: usize,
    ) {
        self.send(lanes, || Message::Open {
            table,
            schema: schema.clone(),
            factory: factory.clone(),
            index,
        });
    }

    /// Hands rows to the lanes: several runs of rows in one message, as each message to a
    /// lane that waits costs a wake-up on the writer's thread.
    pub(crate) fn write(&self, lanes: &[usize], table: usize, rows: Vec<Rows>) {
        let rows = Arc::new(rows);
        self.send(lanes, || Message::Write {
            table,
            rows: rows.clone(),
        });
    }

    /// Ends the open row group of `table`: its columns arrive on the receiver.
    pub(crate) fn close(&self, lanes: &[usize], table: usize) -> Receiver<Encoded> {
        let (done, receiver) = mpsc::channel();
        self.send(lanes, || Message::Close {
            table,
            done: done.clone(),
        });
        receiver
    }
}

/// A lane's open row group of one table: its columns, by index, with their writers.
struct OpenGroup {
    schema: SchemaRef,
    columns: Vec<(usize, Vec<ArrowColumnWriter>)>,
    /// The first error met while writing; reported for every column at the close.
    failed: Option<String>,
}

/// Opens a row group in lane `lane` of `lanes`: the writers of the columns it owns.
fn open_group(
    lane: usize,
    lanes: usize,
    table: usize,
    schema: SchemaRef,
    factory: &ArrowRowGroupWriterFactory,
    index: usize,
) -> OpenGroup {
    let mut group = OpenGroup {
        schema: schema.clone(),
        columns: Vec::new(),
        failed: None,
    };
    let writers = match factory.create_column_writers(index) {
        Ok(w) => w,
        Err(e) => {
            group.failed = Some(e.to_string());
            return group;
        }
    };
    let mut writers = writers.into_iter();
    for (column, field) in schema.fields().iter().enumerate() {
        let own: Vec<ArrowColumnWriter> =
            writers.by_ref().take(leaves(field.data_type())).collect();
        if (table + column) % lanes == lane {
            group.columns.push((column, own));
        }
    }
    group
}

/// Encodes `rows` into the lane's columns of `group`, as one `ArrowWriter::write` of those
/// rows would.
fn write_group(group: &mut OpenGroup, rows: &Rows) -> Result<(), ParquetError> {
    for (column, writers) in &mut group.columns {
        let field = group.schema.field(*column);
        let array = rows.batch.column(*column);
        let leaves = if rows.offset == 0 && rows.len == array.len() {
            compute_leaves(field, array)?
        } else {
            compute_leaves(field, &array.slice(rows.offset, rows.len))?
        };
        for (writer, leaf) in writers.iter_mut().zip(&leaves) {
            writer.write(leaf)?;
        }
    }
    Ok(())
}

fn close_group(group: OpenGroup, done: &Sender<Encoded>) {
    for (column, writers) in group.columns {
        let chunks = match &group.failed {
            Some(why) => Err(ParquetError::General(why.clone())),
            None => writers.into_iter().map(|w| w.close()).collect(),
        };
        let _ = done.send((column, chunks));
    }
}

/// One lane: its open row groups by table, fed messages until every handle is gone.
fn lane(lane: usize, lanes: usize, queue: Receiver<Message>) {
    let mut open: Vec<Option<OpenGroup>> = Vec::new();
    for message in queue {
        match message {
            Message::Open {
                table,
                schema,
                factory,
                index,
            } => {
                if open.len() <= table {
                    open.resize_with(table + 1, || None);
                }
                open[table] = Some(open_group(lane, lanes, table, schema, &factory, index));
            }
            Message::Write { table, rows } => {
                if let Some(Some(group)) = open.get_mut(table) {
                    if group.failed.is_none() {
                        // A panic in the encoder is a bug: it fails this row group (and so
                        // the export) with a message, instead of losing the lane.
                        let written = catch_unwind(AssertUnwindSafe(|| {
                            rows.iter().try_for_each(|r| write_group(group, r))
                        }))
                        .unwrap_or_else(|_| {
                            Err(ParquetError::General(
                                "internal error: the Parquet encoder panicked".into(),
                            ))
                        });
                        if let Err(e) = written {
                            group.failed = Some(e.to_string());
                        }
                    }
                }
            }
            Message::Close { table, done } => {
                if let Some(group) = open.get_mut(table).and_then(Option::take) {
                    close_group(group, &done);
                }
            }
        }
    }
}

/// Runs `body` with `threads` lanes (at least one) behind the handle it gets; they stop when
/// `body` returns (or unwinds) and its handles are dropped.
pub fn with_encoders<R>(threads: usize, body: impl FnOnce(Encoders) -> R) -> R {
    let threads = threads.max(1);
    std::thread::scope(|scope| {
        let lanes = (0..threads)
            .map(|i| {
                let (sender, queue) = mpsc::sync_channel(LANE_QUEUE);
                scope.spawn(move || lane(i, threads, queue));
                sender
            })
            .collect();
        body(Encoders { lanes })
    })
}
