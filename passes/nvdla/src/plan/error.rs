//! How the planner's errors ([`crate::Error`], the variants from
//! [`Error::ConcatMemberIsInput`](crate::Error::ConcatMemberIsInput) to
//! [`Error::Internal`](crate::Error::Internal)) name an op:
//! `nvdla.<engine>` with its `hw_layer` and position.

/// How error messages name an op: `nvdla.concat 'cat1' (op 12)`.
pub fn op_name(p: &crate::Program, index: usize) -> String {
    let o = &p.ops[index];
    format!("nvdla.{} '{}' (op {index})", o.engine, o.hw_layer)
}
