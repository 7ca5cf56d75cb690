//! Whether to colour: `--color auto|always|never`, `NO_COLOR`, terminals.
//!
//! In: the choice, whether the stream is a terminal, and `NO_COLOR`'s
//! value. Out: whether to print ANSI escapes.

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour when the stream is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Always (even into files and pipes).
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (or is not) a terminal, with
    /// `NO_COLOR` set to `no_color` (<https://no-color.org>: any non-empty
    /// value turns colour off; `--color always` still wins).
    pub fn resolve(self, is_terminal: bool, no_color: Option<&str>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && no_color.is_none_or(str::is_empty),
        }
    }

    /// [`ColorChoice::resolve`] for standard error and this process's `NO_COLOR`.
    pub fn for_stderr(self) -> bool {
        use std::io::IsTerminal;
        let no_color = std::env::var("NO_COLOR").ok();
        self.resolve(std::io::stderr().is_terminal(), no_color.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::ColorChoice::*;

    #[test]
    fn auto_follows_the_terminal_and_no_color() {
        assert!(Auto.resolve(true, None));
        assert!(Auto.resolve(true, Some("")));
        assert!(!Auto.resolve(true, Some("1")));
        assert!(!Auto.resolve(false, None));
        assert!(Always.resolve(false, Some("1")));
        assert!(!Never.resolve(true, None));
    }
}
