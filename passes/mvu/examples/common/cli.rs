//! The examples' `main`: run on the command-line arguments, print the
//! result line, or the error on stderr with a failing exit code.

use std::process::ExitCode;

/// Runs `run` on the arguments after the program name. Out: success with
/// its line printed on stdout, or failure with `error: …` on stderr.
pub fn main_with(run: fn(&[String]) -> Result<String, String>) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
