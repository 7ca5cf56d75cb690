//! The packed little-endian codec every descriptor is built on.
//!
//! In: byte slices of exactly a descriptor's size. Out: typed structs, and
//! back. [`Rd`] and [`Wr`] are sequential cursors; [`Field`] reads, writes
//! and prints one field; [`Descriptor`] is a whole `dla_interface.h` struct
//! with an ABI-dependent size. The [`descriptor!`](crate::desc::codec)
//! macro declares a packed struct field by field, in header order, and
//! derives all of that, so a layout is written down exactly once.

use crate::abi::Abi;
use crate::error::{Error, Result};
use crate::text::Out;

/// Sequential reader over a slice. Reads past the end yield zeros; callers
/// check the length first (see [`Descriptor::decode`]), so this never
/// happens on checked input and never panics on unchecked input.
#[derive(Debug)]
pub struct Rd<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Rd<'a> {
    /// A reader at the start of `b`.
    pub fn new(b: &'a [u8]) -> Self {
        Rd { b, pos: 0 }
    }

    /// Reads `N` bytes.
    pub fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self
            .pos
            .checked_add(N)
            .and_then(|end| self.b.get(self.pos..end))
            .and_then(|s| <[u8; N]>::try_from(s).ok())
            .unwrap_or([0; N]);
        self.pos = self.pos.saturating_add(N);
        out
    }

    /// Reads `n` bytes into a vector.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let out = (0..n)
            .map(|i| self.b.get(self.pos + i).copied().unwrap_or(0))
            .collect();
        self.pos = self.pos.saturating_add(n);
        out
    }
}

/// Sequential writer.
#[derive(Debug, Default)]
pub struct Wr {
    buf: Vec<u8>,
}

impl Wr {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends bytes.
    pub fn put(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The written bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

/// One field of a packed descriptor.
pub trait Field: Sized {
    /// Reads the field.
    fn get(r: &mut Rd, abi: Abi) -> Self;
    /// Writes the field.
    fn put(&self, w: &mut Wr, abi: Abi);
    /// The value as one short token, if it is a scalar.
    fn token(&self) -> Option<String> {
        None
    }
    /// Whether the field encodes to all-zero bytes.
    fn is_zero(&self, abi: Abi) -> bool {
        let mut w = Wr::new();
        self.put(&mut w, abi);
        w.into_bytes().iter().all(|&b| b == 0)
    }
    /// Prints the field as `name: value` or a nested block.
    fn show(&self, name: &str, out: &mut Out, abi: Abi) {
        let _ = abi;
        out.kv(name, self.token().unwrap_or_default());
    }
}

macro_rules! scalar_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            fn get(r: &mut Rd, _abi: Abi) -> Self {
                <$t>::from_le_bytes(r.take())
            }
            fn put(&self, w: &mut Wr, _abi: Abi) {
                w.put(&self.to_le_bytes());
            }
            fn token(&self) -> Option<String> {
                Some(self.to_string())
            }
        }
    )*};
}
scalar_field!(u8, i8, u16, i16, u32, i32, u64, i64, f32);

impl<T: Field, const N: usize> Field for [T; N] {
    fn get(r: &mut Rd, abi: Abi) -> Self {
        std::array::from_fn(|_| T::get(r, abi))
    }
    fn put(&self, w: &mut Wr, abi: Abi) {
        for v in self {
            v.put(w, abi);
        }
    }
    fn show(&self, name: &str, out: &mut Out, abi: Abi) {
        let tokens: Option<Vec<String>> = self.iter().map(Field::token).collect();
        match tokens {
            Some(t) if t.len() <= 16 => out.kv(name, format_args!("[{}]", t.join(", "))),
            Some(t) => out.nest(format_args!("{name}: [{N} values]"), |out| {
                for (i, chunk) in t.chunks(16).enumerate() {
                    out.line(format_args!("[{:3}] {}", i * 16, chunk.join(" ")));
                }
            }),
            None => {
                // Collapse a run of all-zero trailing elements into one line.
                let used = self
                    .iter()
                    .rposition(|v| !v.is_zero(abi))
                    .map_or(0, |p| p + 1);
                for (i, v) in self.iter().enumerate().take(used) {
                    v.show(&format!("{name}[{i}]"), out, abi);
                }
                if used + 1 < N {
                    out.line(format_args!("{name}[{used}..{N}]: all zero"));
                } else if used + 1 == N {
                    out.line(format_args!("{name}[{used}]: all zero"));
                }
            }
        }
    }
}

/// A whole `dla_interface.h` (or `emu_interface.h`) struct.
pub trait Descriptor: Field + Clone + PartialEq + std::fmt::Debug {
    /// The C struct name.
    const C_NAME: &'static str;

    /// `sizeof` the C struct for `abi`.
    fn size(abi: Abi) -> usize;

    /// Decodes exactly [`size`](Self::size) bytes.
    fn decode(bytes: &[u8], abi: Abi) -> Result<Self> {
        let expected = Self::size(abi);
        if bytes.len() != expected {
            return Err(Error::BadLength {
                what: Self::C_NAME,
                expected,
                got: bytes.len(),
            });
        }
        Ok(Self::get(&mut Rd::new(bytes), abi))
    }

    /// Encodes to exactly [`size`](Self::size) bytes.
    fn encode(&self, abi: Abi) -> Vec<u8> {
        let mut w = Wr::new();
        self.put(&mut w, abi);
        w.into_bytes()
    }

    /// Prints every field, one per line.
    fn dump_fields(&self, out: &mut Out, abi: Abi);
}

/// Declares a packed descriptor struct whose fields are laid out in order,
/// with no padding, identically in both ABIs (ABI differences come only from
/// nested [`DataCube`](crate::desc::DataCube)s).
macro_rules! descriptor {
    (
        $(#[$doc:meta])*
        pub struct $name:ident = $cname:literal {
            $( $(#[$fdoc:meta])* pub $f:ident : $t:ty, )*
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            $( $(#[$fdoc])* pub $f: $t, )*
        }

        impl Default for $name {
            /// All fields zero.
            fn default() -> Self {
                <Self as $crate::desc::codec::Field>::get(
                    &mut $crate::desc::codec::Rd::new(&[]),
                    $crate::abi::Abi::Current,
                )
            }
        }

        impl $crate::desc::codec::Field for $name {
            fn get(r: &mut $crate::desc::codec::Rd, abi: $crate::abi::Abi) -> Self {
                $name { $( $f: <$t as $crate::desc::codec::Field>::get(r, abi), )* }
            }
            fn put(&self, w: &mut $crate::desc::codec::Wr, abi: $crate::abi::Abi) {
                $( $crate::desc::codec::Field::put(&self.$f, w, abi); )*
            }
            fn show(&self, name: &str, out: &mut $crate::text::Out, abi: $crate::abi::Abi) {
                // Small all-scalar structs (cvt params, slopes) print on one line.
                let tokens: Option<Vec<String>> = [$(
                    $crate::desc::codec::Field::token(&self.$f)
                        .map(|t| format!("{}={}", stringify!($f), t)),
                )*]
                .into_iter()
                .collect();
                match tokens {
                    Some(t) if t.len() <= 4 => out.kv(name, t.join(" ")),
                    _ => out.nest(format_args!("{name}:"), |out| {
                        $crate::desc::codec::Descriptor::dump_fields(self, out, abi)
                    }),
                }
            }
        }

        impl $crate::desc::codec::Descriptor for $name {
            const C_NAME: &'static str = $cname;
            fn size(abi: $crate::abi::Abi) -> usize {
                let mut w = $crate::desc::codec::Wr::new();
                $crate::desc::codec::Field::put(&Self::default(), &mut w, abi);
                w.len()
            }
            fn dump_fields(&self, out: &mut $crate::text::Out, abi: $crate::abi::Abi) {
                $(
                    let token = $crate::desc::codec::Field::token(&self.$f);
                    let name = token
                        .as_deref()
                        .and_then(|t| t.parse::<i64>().ok())
                        .and_then(|v| $crate::desc::names::annotate($cname, stringify!($f), v));
                    match (token, name) {
                        (Some(t), Some(n)) => out.kv(stringify!($f), format_args!("{t} ({n})")),
                        _ => $crate::desc::codec::Field::show(&self.$f, stringify!($f), out, abi),
                    }
                )*
            }
        }
    };
}
pub(crate) use descriptor;
