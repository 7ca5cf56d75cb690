//! The reader/writer field slots (`src/schema.rs`) match
//! `proto/nvdla/loadable.fbs` table by table, field by field.

use onnc_nvdla_loadable::schema::TABLES;

/// `(table, [field…])` in declaration order, from the .fbs text.
fn parse_fbs(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if let Some(rest) = line.strip_prefix("table ") {
            let name = rest.trim_end_matches('{').trim().to_string();
            current = Some((name, Vec::new()));
        } else if line.starts_with('}') {
            if let Some(t) = current.take() {
                out.push(t);
            }
        } else if let Some((_, fields)) = current.as_mut() {
            if let Some((name, _)) = line.split_once(':') {
                fields.push(name.trim().to_string());
            }
        }
    }
    out
}

#[test]
fn slots_match_the_schema_file() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../proto/nvdla/loadable.fbs"
    );
    let text = std::fs::read_to_string(path).expect("proto/nvdla/loadable.fbs");
    let parsed = parse_fbs(&text);
    assert_eq!(parsed.len(), TABLES.len());
    for (table, fields) in TABLES {
        let (_, from_file) = parsed
            .iter()
            .find(|(t, _)| t == table)
            .unwrap_or_else(|| panic!("table {table} not in the .fbs"));
        let ours: Vec<String> = fields
            .iter()
            .map(|f| f.trim_start_matches("r#").to_string())
            .collect();
        assert_eq!(&ours, from_file, "table {table}");
    }
    assert!(text.contains("root_type Loadable;"));
}
