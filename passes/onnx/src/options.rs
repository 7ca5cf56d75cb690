//! [`Options`]: knobs of [`crate::load`] / [`crate::decode`].

/// How to load a model.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Shape overrides for graph inputs (`--input-shape name=1x3x224x224`):
    /// each replaces the input's whole shape; the rank must match when the
    /// file gives one. Symbolic dimensions not overridden stay [`crate::Dim::Param`].
    pub input_shapes: Vec<(String, Vec<usize>)>,
}

impl Options {
    /// Parses one `--input-shape` value, `name=1x3x224x224` (a scalar is `name=`).
    pub fn parse_input_shape(s: &str) -> Option<(String, Vec<usize>)> {
        let (name, dims) = s.rsplit_once('=')?;
        if name.is_empty() {
            return None;
        }
        let dims = if dims.is_empty() {
            Vec::new()
        } else {
            dims.split(['x', ','])
                .map(|d| d.trim().parse().ok())
                .collect::<Option<Vec<usize>>>()?
        };
        Some((name.to_string(), dims))
    }
}

#[cfg(test)]
mod tests {
    use super::Options;

    #[test]
    fn parses_input_shapes() {
        assert_eq!(
            Options::parse_input_shape("data_0=1x3x224x224"),
            Some(("data_0".into(), vec![1, 3, 224, 224]))
        );
        assert_eq!(
            Options::parse_input_shape("a=b=2,3"),
            Some(("a=b".into(), vec![2, 3]))
        );
        assert_eq!(Options::parse_input_shape("s="), Some(("s".into(), vec![])));
        assert_eq!(Options::parse_input_shape("=1x2"), None);
        assert_eq!(Options::parse_input_shape("x=1xq"), None);
        assert_eq!(Options::parse_input_shape("x"), None);
    }
}
