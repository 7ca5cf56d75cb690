//! Grouped and depthwise convolutions lowered natively: a `Conv` with
//! `group = G > 1` becomes one `nvdla.conv` that keeps its grouped kernel
//! `[K, C/G, R, S]` and carries `group = G`.
//!
//! In: a grouped `Conv` node's kernel shape, its input's channel count and
//! its `group`. Out: nothing when they agree (`K` and `C` multiples of `G`,
//! the kernel reading `C/G` channels), else what is wrong and how to fix
//! it, for the lowering's problem list ([`check`]).
//!
//! The legalizer keeps grouped convolutions whole for NVDLA (splitting into
//! G convolutions and a `Concat` made thousands of e-graph nodes: ShuffleNet
//! 203 nodes became 4765). Consumers that need the dense `[K, C, R, S]`
//! kernel (zeros outside the groups) read it through
//! [`crate::grouped_kernel`]; emission cuts such a conv into channel chunks
//! holding only the groups' blocks (`emit/chunking.rs`), so neither the IR
//! nor the loadable holds the dense block.
//!
//! ```text
//! y = Conv(x[1,8,H,W], w[4,4,3,3], group = 2)
//!   ⇒  %y = "nvdla.conv"(%x, %w) {group = 2 : i64, ...} : (tensor<1x8xHxW>, tensor<4x4x3x3>) -> ...
//! ```

/// Whether a grouped conv's kernel `shape` and its input's `channels` (if
/// known) agree with `group` (> 1): `Err((what, fix))` naming the
/// disagreement when not.
pub fn check(shape: &[usize], channels: Option<usize>, group: i64) -> Result<(), (String, String)> {
    let fix = "export the convolution with a kernel [K, C/group, R, S] and K and C multiples of group (ONNX Conv)";
    let Some(g) = usize::try_from(group).ok().filter(|&g| g > 0) else {
        return Err((
            format!("has group = {group}"),
            "group must be a positive integer".into(),
        ));
    };
    let &[k, cg, _, _] = shape else {
        return Err((
            format!("is a grouped convolution (group = {g}) with a kernel of shape {shape:?}"),
            "NVDLA runs 2-D convolutions: the kernel must be [K, C/group, R, S]".into(),
        ));
    };
    if k % g != 0 {
        return Err((
            format!("has {k} kernels, not a multiple of group = {g}"),
            fix.into(),
        ));
    }
    if let Some(c) = channels {
        if cg.checked_mul(g) != Some(c) {
            return Err((
                format!("reads {c} input channels but its kernel has {cg} per group × {g} groups"),
                fix.into(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreeing_shapes_pass_and_others_say_why() {
        assert!(check(&[32, 1, 3, 3], Some(32), 32).is_ok(), "depthwise");
        assert!(check(&[8, 4, 3, 3], Some(8), 2).is_ok());
        assert!(check(&[8, 4, 3, 3], None, 2).is_ok(), "input shape unknown");
        let (what, _) = check(&[6, 4, 3, 3], Some(8), 4).unwrap_err();
        assert_eq!(what, "has 6 kernels, not a multiple of group = 4");
        let (what, fix) = check(&[8, 4, 3, 3], Some(12), 2).unwrap_err();
        assert_eq!(
            what,
            "reads 12 input channels but its kernel has 4 per group × 2 groups"
        );
        assert!(fix.contains("[K, C/group, R, S]"));
        assert!(check(&[8, 4, 3], Some(8), 2)
            .unwrap_err()
            .0
            .contains("[8, 4, 3]"));
        assert!(check(&[8, 4, 3, 3], Some(8), -2)
            .unwrap_err()
            .0
            .contains("-2"));
        assert!(check(&[8, 4, 3, 3], Some(8), 0)
            .unwrap_err()
            .0
            .contains("group = 0"));
    }
}
