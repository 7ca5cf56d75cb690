//! The `--input-shape` syntax of the tools.
//!
//! One flag value holds one or several inputs. An input is `NAME=DIMS` or
//! `NAME:DIMS`; dims are separated by `x` or `,` (`x=1x3x224x224`,
//! `x:1,3,224,224`, `x=1,3,224,224`; `s=` is a scalar). Several inputs go in
//! repeated flags, or in one value separated by `;` (always) or `,` (when
//! every input uses `x` between its dims: `a=1x3,b=2x4`). The output is the
//! canonical `NAME=DxD..` the loader reads.
//!
//! ```text
//! --input-shape 'a=1x3;b:2,4'   →  a=1x3, b=2x4
//! ```

/// What every error ends with.
const SYNTAX: &str = "write NAME=1x3x224x224 or NAME:1,3,224,224; several inputs: repeat the flag or separate them with ';'";

/// Parses every `--input-shape` value into canonical `NAME=DxD..` strings.
pub fn canonical(values: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for value in values {
        for entry in entries(value)? {
            out.push(parse_entry(value, &entry)?);
        }
    }
    Ok(out)
}

/// Cuts one flag value into `NAME=DIMS` entries.
fn entries(value: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for part in value.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        // A comma before a token that names an input starts a new input;
        // any other comma separates dims of the current one.
        let mut current: Option<String> = None;
        for token in part.split(',') {
            if token.contains(['=', ':']) {
                out.extend(current.take());
                current = Some(token.trim().to_string());
            } else if let Some(c) = current.as_mut() {
                c.push(',');
                c.push_str(token.trim());
            } else {
                return Err(format!("error: --input-shape '{value}' is not NAME=DxDx..: '{token}' names no input; {SYNTAX}"));
            }
        }
        out.extend(current);
    }
    if out.is_empty() {
        return Err(format!(
            "error: --input-shape '{value}' is not NAME=DxDx..: it names no input; {SYNTAX}"
        ));
    }
    Ok(out)
}

/// `NAME=DIMS` or `NAME:DIMS` → `NAME=DxD..`.
fn parse_entry(value: &str, entry: &str) -> Result<String, String> {
    let bad =
        |why: String| format!("error: --input-shape '{value}' is not NAME=DxDx..: {why}; {SYNTAX}");
    let (name, dims) = entry
        .rsplit_once('=')
        .or_else(|| entry.rsplit_once(':'))
        .ok_or_else(|| bad(format!("'{entry}' has no '=' or ':'")))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(bad(format!("'{entry}' has no input name")));
    }
    let dims = dims.trim();
    if dims.contains('x') && dims.contains(',') {
        return Err(bad(format!("'{dims}' mixes 'x' and ','")));
    }
    let mut parsed = Vec::new();
    for d in dims.split(['x', ',']).filter(|_| !dims.is_empty()) {
        match d.trim().parse::<u64>() {
            Ok(n) if n > 0 => parsed.push(n.to_string()),
            _ => return Err(bad(format!("'{d}' is not a positive dimension"))),
        }
    }
    Ok(format!("{name}={}", parsed.join("x")))
}

#[cfg(test)]
mod tests {
    use super::canonical;

    fn c(values: &[&str]) -> Result<Vec<String>, String> {
        canonical(&values.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn every_spelling_gives_the_same_shape() {
        for v in [
            "x=1x3x224x224",
            "x:1,3,224,224",
            "x=1,3,224,224",
            "x:1x3x224x224",
            " x = 1x3x224x224 ",
        ] {
            assert_eq!(c(&[v]).unwrap(), ["x=1x3x224x224"], "{v}");
        }
    }

    #[test]
    fn several_inputs() {
        let want = ["a=1x3", "b=2x4"];
        assert_eq!(c(&["a=1x3", "b=2x4"]).unwrap(), want);
        assert_eq!(c(&["a=1x3,b=2x4"]).unwrap(), want);
        assert_eq!(c(&["a=1,3;b=2,4"]).unwrap(), want);
        assert_eq!(c(&["a:1,3,b:2,4"]).unwrap(), want);
        assert_eq!(c(&["input:0=1x3"]).unwrap(), ["input:0=1x3"]);
        assert_eq!(c(&["s="]).unwrap(), ["s="]);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(c(&["x=2xZ"])
            .unwrap_err()
            .contains("'Z' is not a positive dimension"));
        assert!(c(&["x=0x3"])
            .unwrap_err()
            .contains("'0' is not a positive dimension"));
        assert!(c(&["1,3,224"]).unwrap_err().contains("names no input"));
        assert!(c(&["x=1x3,4"]).unwrap_err().contains("mixes 'x' and ','"));
        assert!(c(&["=1x3"]).unwrap_err().contains("no input name"));
        assert!(c(&[";"]).unwrap_err().contains("names no input"));
    }
}
