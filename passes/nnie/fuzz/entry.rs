//! The entry point shared by the `clip_table` cargo-fuzz target
//! (`fuzz/fuzz_targets/clip_table.rs`) and the corpus replay test
//! (`tests/fuzz_corpus.rs`): included in both with `#[path]`, so the fuzzer
//! and the ordinary suite run exactly the same code.

use onnc_nnie::{ClipTable, SnapMode};

/// MQBench's clip table (`*_gfpq_param_dict.json`, the only calibration
/// format the NNIE back end reads): `ClipTable::from_json`, then what the
/// compiler does with it (`snapped`, `grid_clips`), and the writer. A table
/// that reads must survive `to_json` → `from_json` unchanged; errors are
/// fine, a panic is a bug.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(table) = ClipTable::from_json(&text) else {
        return;
    };
    round_trip(&table);
    for mode in [SnapMode::Nearest, SnapMode::Up, SnapMode::Down] {
        if let Ok(snapped) = table.snapped(mode) {
            if let Err(e) = snapped.grid_clips() {
                panic!("a snapped table is off the grid: {e}");
            }
            round_trip(&snapped);
        }
    }
}

fn round_trip(table: &ClipTable) {
    let json = table.to_json();
    match ClipTable::from_json(&json) {
        Ok(back) => assert_eq!(&back, table, "to_json → from_json changed the table"),
        Err(e) => panic!("a table does not reread its own JSON: {e}\n{json}"),
    }
}
