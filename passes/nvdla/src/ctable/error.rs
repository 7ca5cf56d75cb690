//! How calibration-table errors ([`crate::Error`], the variants from
//! [`Error::Json`](crate::Error::Json) to [`Error::Several`](crate::Error::Several))
//! word their messages.
//!
//! In: a problem found while loading. Out: a message naming the file, the
//! key, the register and what would fix it, e.g.
//! `net.json: 'conv1.SDP': unknown register 'out_cvt.scal' (did you mean 'out_cvt.scale'?)`.

pub(crate) fn hint(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!(" (did you mean '{one}'?)"),
        many => format!(
            " (did you mean one of: {}?)",
            many.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Most problems listed one by one; the rest are counted.
pub const MAX_LISTED: usize = 20;

pub(crate) fn list(errors: &[crate::Error]) -> String {
    let mut s: String = errors
        .iter()
        .take(MAX_LISTED)
        .map(|e| format!("\n  {e}"))
        .collect();
    if errors.len() > MAX_LISTED {
        s += &format!("\n  … and {} more", errors.len() - MAX_LISTED);
    }
    s
}

/// Tensors listed by name in [`crate::Error::MissingScales`]; the rest counted.
pub const MAX_NAMED: usize = 8;

/// `'a', 'b', … (and N more)`: the first [`MAX_NAMED`] of `names`.
fn named(names: &[String], quote: bool) -> String {
    let mut s = names
        .iter()
        .take(MAX_NAMED)
        .map(|n| if quote { format!("'{n}'") } else { n.clone() })
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > MAX_NAMED {
        s += &format!(" (and {} more)", names.len() - MAX_NAMED);
    }
    s
}

pub(crate) fn missing_message(tensors: &[String], unmatched: &[String]) -> String {
    let mut s = format!(
        "the table has no scale for {} tensor{} the program needs: {}; add an entry for each \
         (keyed by its ONNX tensor name), or calibrate from data",
        tensors.len(),
        if tensors.len() == 1 { "" } else { "s" },
        named(tensors, true)
    );
    if !unmatched.is_empty() {
        s += &format!(
            "; {} table entr{} name{} no tensor of this program: {}",
            unmatched.len(),
            if unmatched.len() == 1 { "y" } else { "ies" },
            if unmatched.len() == 1 { "s" } else { "" },
            named(unmatched, false)
        );
    }
    s
}

impl crate::Error {
    /// One error, or [`crate::Error::Several`].
    pub(crate) fn collect(file: &str, mut errors: Vec<crate::Error>) -> crate::Result<()> {
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(crate::Error::Several {
                file: file.to_string(),
                errors,
            }),
        }
    }
}
