// bench/vs_arrow_row.sh's Rust half: arrow-row's RowConverter over the same
// Arrow IPC file ordo reads. One RowConverter::append of every batch into a
// reused Rows per round, after a warm-up one, best of ROUNDS; prints
// "rows columns seconds row_bytes".
use arrow_array::{ArrayRef, RecordBatch};
use arrow_ipc::reader::FileReader;
use arrow_row::{RowConverter, SortField};
use arrow_schema::SortOptions;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: vs_arrow_row FILE.arrow ROUNDS asc|desc-nulls-first");
        std::process::exit(2);
    }
    let rounds: usize = args[2].parse().expect("ROUNDS");
    let desc = match args[3].as_str() {
        "asc" => false,
        "desc-nulls-first" => true,
        o => panic!("order: {o}"),
    };
    let file = std::fs::File::open(&args[1]).expect("open");
    let reader = FileReader::try_new(file, None).expect("IPC file");
    let schema = reader.schema();
    let batches: Vec<RecordBatch> = reader.map(|b| b.expect("batch")).collect();
    // descending = true, nulls_first = true; else ascending, NULLs last as ordo's default
    let opts = SortOptions { descending: desc, nulls_first: desc };
    let fields: Vec<SortField> = schema
        .fields()
        .iter()
        .map(|f| SortField::new_with_options(f.data_type().clone(), opts))
        .collect();
    let conv = RowConverter::new(fields).expect("converter");
    let cols: Vec<Vec<ArrayRef>> = batches.iter().map(|b| b.columns().to_vec()).collect();
    let nrows: usize = batches.iter().map(|b| b.num_rows()).sum();
    let mut rows = conv.empty_rows(nrows, 0);
    for c in &cols {
        conv.append(&mut rows, c).expect("append"); // warm-up: Rows grown to size
    }
    let mut best = f64::INFINITY;
    for _ in 0..rounds.max(1) {
        rows.clear();
        let t = Instant::now();
        for c in &cols {
            conv.append(&mut rows, c).expect("append");
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    assert_eq!(rows.num_rows(), nrows);
    let bytes: usize = rows.iter().map(|r| r.as_ref().len()).sum();
    println!("{} {} {:.9e} {}", rows.num_rows(), schema.fields().len(), best, bytes);
}
