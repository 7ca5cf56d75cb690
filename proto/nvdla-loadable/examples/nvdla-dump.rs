//! Dumps and verifies loadables:
//! `cargo run -p onnc-nvdla-loadable --example nvdla-dump -- [--verify] FILE...`.
use onnc_nvdla_loadable::{detect_abi, dump_detected, verify, Loadable};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only_verify = args.iter().any(|a| a == "--verify");
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let bytes = std::fs::read(path)?;
        let l = Loadable::read(&bytes)?;
        if only_verify {
            let v = verify(&l, detect_abi(&l).abi);
            println!("{path}: {} violation(s)", v.len());
            for v in v {
                println!("  {v}");
            }
        } else {
            print!("{}", dump_detected(&l));
        }
    }
    Ok(())
}
